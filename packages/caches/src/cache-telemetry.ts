// The caches' metrics: entries in the view, events applied (by type), and how long the
// initial load took (when the start mode waits for one).
import type { FrameworkClient } from '@zkrecipes/framework';
import {
  telemetryOf,
  type Attributes,
  type ClientTelemetry,
  type InstrumentationScope,
} from '@zkrecipes/framework/recipe-support';

/** What this package's metrics and spans are reported under: its name and version. */
export const INSTRUMENTATION_SCOPE: InstrumentationScope = {
  name: '@zkrecipes/caches',
  version: '0.1.0',
};

/** @internal The telemetry of one cache. */
export class CacheTelemetry {
  readonly #telemetry: ClientTelemetry;
  readonly #recipe: string;
  readonly #path: string;
  readonly #attributes: Attributes;
  readonly #eventAttributes = new Map<string, Attributes>();
  readonly #entries: () => number;
  #stopEntries: (() => void) | undefined;

  constructor(client: FrameworkClient, recipe: string, path: string, entries: () => number) {
    this.#telemetry = telemetryOf(client, INSTRUMENTATION_SCOPE);
    this.#recipe = recipe;
    this.#path = path;
    this.#attributes = this.#telemetry.recipeAttributes(recipe, path);
    this.#entries = entries;
  }

  /** The cache started: its entry count is reported until `stopped`. */
  started(): void {
    this.#stopEntries ??= this.#telemetry.observe(
      'zkrecipes.cache.entries',
      { description: 'Nodes in the cache view', unit: '{node}' },
      this.#attributes,
      this.#entries,
    );
  }

  stopped(): void {
    this.#stopEntries?.();
    this.#stopEntries = undefined;
  }

  /** Counts an event (`type`: CHILD_ADDED, NODE_CHANGED, INITIALIZED...). */
  event(type: string): void {
    if (!this.#telemetry.metricsEnabled) return;
    let attributes = this.#eventAttributes.get(type);
    if (attributes === undefined) {
      attributes = this.#telemetry.recipeAttributes(this.#recipe, this.#path, {
        'zkrecipes.cache.event': type,
      });
      this.#eventAttributes.set(type, attributes);
    }
    this.#telemetry
      .counter('zkrecipes.cache.events', {
        description: 'Cache events, by type',
        unit: '{event}',
      })
      .add(1, attributes);
  }

  /** Times the initial load: call the returned function when it completed. */
  loadStarted(): () => void {
    const startMs = performance.now();
    return () =>
      this.#telemetry
        .durationHistogram('zkrecipes.cache.initial_load.duration', {
          description: 'How long the initial load of the cache took',
          unit: 's',
        })
        .record((performance.now() - startMs) / 1000, this.#attributes);
  }
}
