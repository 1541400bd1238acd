// GroupMember's metrics: members in the view, changes of the view, and how long the first
// load of the group took.
import type { FrameworkClient } from '@zkrecipes/framework';
import {
  telemetryOf,
  type Attributes,
  type ClientTelemetry,
  type InstrumentationScope,
} from '@zkrecipes/framework/recipe-support';

/** What this package's metrics and spans are reported under: its name and version. */
export const INSTRUMENTATION_SCOPE: InstrumentationScope = {
  name: '@zkrecipes/group',
  version: '0.1.0',
};

/** @internal The telemetry of one GroupMember. */
export class GroupTelemetry {
  readonly #telemetry: ClientTelemetry;
  readonly #attributes: Attributes;
  readonly #members: () => number;
  #stopMembers: (() => void) | undefined;

  constructor(client: FrameworkClient, path: string, members: () => number) {
    this.#telemetry = telemetryOf(client, INSTRUMENTATION_SCOPE);
    this.#attributes = this.#telemetry.recipeAttributes('GroupMember', path);
    this.#members = members;
  }

  /** The member started: the view's size is reported until `stopped`; returns the load timer. */
  started(): () => void {
    this.#stopMembers ??= this.#telemetry.observe(
      'zkrecipes.group.members',
      { description: 'Members in the group view (this member included)', unit: '{member}' },
      this.#attributes,
      this.#members,
    );
    const startMs = performance.now();
    return () =>
      this.#telemetry
        .durationHistogram('zkrecipes.group.initial_load.duration', {
          description: 'How long the first listing and read of the group took',
          unit: 's',
        })
        .record((performance.now() - startMs) / 1000, this.#attributes);
  }

  /** The view changed (a member joined, left or changed its payload). */
  changed(): void {
    if (!this.#telemetry.metricsEnabled) return;
    this.#telemetry
      .counter('zkrecipes.group.changes', {
        description: 'Changes of the group view',
        unit: '{change}',
      })
      .add(1, this.#attributes);
  }

  stopped(): void {
    this.#stopMembers?.();
    this.#stopMembers = undefined;
  }
}
