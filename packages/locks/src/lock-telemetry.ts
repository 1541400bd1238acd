// The locks' metrics and spans: how long acquires wait and how they end, how long holds last,
// acquire(0) answers, and lost signals fired while a hold was in force. Attributes are the
// lock's class name (and its path only when the client records paths).
import { performance } from 'node:perf_hooks';
import type { FrameworkClient } from '@zkrecipes/framework';
import {
  errorTypeOf,
  telemetryOf,
  type Attributes,
  type ClientTelemetry,
  type InstrumentationScope,
  type Span,
} from '@zkrecipes/framework/recipe-support';

/** What this package's metrics and spans are reported under: its name and version. */
export const INSTRUMENTATION_SCOPE: InstrumentationScope = {
  name: '@zkrecipes/locks',
  version: '0.1.0',
};

/** How an acquire ended, as the `zkrecipes.lock.outcome` attribute says it. */
export type AcquireOutcome = 'acquired' | 'timed_out' | 'error';

/** One acquire being measured; `end` it exactly once. */
export interface AcquireTrace {
  end(outcome: AcquireOutcome, error?: unknown): void;
}

const OUTCOMES: readonly AcquireOutcome[] = ['acquired', 'timed_out', 'error'];

/** The trace of an acquire when nothing records. */
const NOT_TRACED: AcquireTrace = { end: () => {} };

/** @internal The telemetry of one lock object. */
export class LockTelemetry {
  readonly #telemetry: ClientTelemetry;
  readonly #attributes: Attributes;
  readonly #outcomeAttributes: Record<AcquireOutcome, Attributes>;
  /** The `error` outcome's attributes with each `error.type` met. */
  readonly #errorAttributes = new Map<string, Attributes>();
  /** The holds (or leases) being timed. */
  readonly #holds = new WeakMap<object, HoldTrace>();

  constructor(client: FrameworkClient, recipe: string, path: string) {
    const telemetry = telemetryOf(client, INSTRUMENTATION_SCOPE);
    this.#telemetry = telemetry;
    this.#attributes = telemetry.recipeAttributes(recipe, path);
    this.#outcomeAttributes = Object.fromEntries(
      OUTCOMES.map((outcome) => [
        outcome,
        telemetry.recipeAttributes(recipe, path, { 'zkrecipes.lock.outcome': outcome }),
      ]),
    ) as Record<AcquireOutcome, Attributes>;
  }

  /** An acquire begins: its span starts and its wait is timed (`acquire(0)` is only counted). */
  acquireStarted(timeoutMs: number | undefined): AcquireTrace {
    // Nothing records: no span, no clock, no attributes (this is on every acquire's path).
    if (!this.#telemetry.recording) return NOT_TRACED;
    const tryOnly = timeoutMs === 0;
    const startMs = performance.now();
    const span = this.#telemetry.startSpan('zkrecipes.lock.acquire', {
      ...this.#attributes,
      'zkrecipes.lock.timeout_ms': timeoutMs ?? -1,
    });
    return {
      end: (outcome, error) => this.#acquireEnded(span, startMs, tryOnly, outcome, error),
    };
  }

  /**
   * `hold` was taken: times it until `released`, and counts its lost signal if it fires. All
   * of it is metrics: nothing to do (not even the signal to make) when none are recorded.
   */
  held(hold: object, lost: () => AbortSignal): void {
    if (!this.#telemetry.metricsEnabled) return;
    this.#holding().add(1, this.#attributes);
    const trace = new HoldTrace(performance.now());
    this.#holds.set(hold, trace);
    lost().addEventListener(
      'abort',
      () => {
        if (trace.releasedMs === undefined) {
          this.#telemetry
            .counter('zkrecipes.lock.lost', {
              description: 'Lost signals fired while a hold was in force',
              unit: '{signal}',
            })
            .add(1, this.#attributes);
        }
      },
      { once: true },
    );
  }

  /** `hold` was given back (release() or close() called); a second call does nothing. */
  released(hold: object): void {
    if (!this.#telemetry.metricsEnabled) return;
    const trace = this.#holds.get(hold);
    if (trace === undefined || trace.releasedMs !== undefined) return;
    trace.releasedMs = performance.now();
    this.#holding().add(-1, this.#attributes);
    this.#telemetry
      .durationHistogram('zkrecipes.lock.hold.duration', {
        description: 'How long a lock was held, from acquired to release()',
        unit: 's',
      })
      .record((trace.releasedMs - trace.startMs) / 1000, this.#attributes);
  }

  #acquireEnded(
    span: Span,
    startMs: number,
    tryOnly: boolean,
    outcome: AcquireOutcome,
    error: unknown,
  ): void {
    const seconds = (performance.now() - startMs) / 1000;
    if (tryOnly) {
      this.#telemetry
        .counter('zkrecipes.lock.try_acquire', {
          description: 'acquire(0) calls, by outcome (acquired, timed_out: someone holds it)',
          unit: '{call}',
        })
        .add(1, outcome === 'error' ? this.#failedWith(error) : this.#outcomeAttributes[outcome]);
    } else {
      this.#telemetry
        .durationHistogram('zkrecipes.lock.acquire.duration', {
          description: 'How long acquire() took (its wait for the lock), by outcome',
          unit: 's',
        })
        .record(
          seconds,
          outcome === 'error' ? this.#failedWith(error) : this.#outcomeAttributes[outcome],
        );
    }
    span.setAttribute('zkrecipes.lock.outcome', outcome);
    this.#telemetry.endSpan(span, outcome === 'error' ? (error ?? 'error') : undefined);
  }

  /** The attributes of an acquire that rejected with `error`: its outcome and `error.type`. */
  #failedWith(error: unknown): Attributes {
    const type = errorTypeOf(error);
    let attributes = this.#errorAttributes.get(type);
    if (attributes === undefined) {
      attributes = { ...this.#outcomeAttributes.error, 'error.type': type };
      this.#errorAttributes.set(type, attributes);
    }
    return attributes;
  }

  #holding() {
    return this.#telemetry.upDownCounter('zkrecipes.lock.held', {
      description: 'Holds in force in this process',
      unit: '{hold}',
    });
  }
}

/** When a hold began and ended. */
class HoldTrace {
  readonly startMs: number;
  releasedMs: number | undefined;

  constructor(startMs: number) {
    this.startMs = startMs;
  }
}
