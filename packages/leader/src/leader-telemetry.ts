// The leader recipes' metrics and spans: leadership gained and lost, terms (a span and a
// length), whether this participant leads, and the time without a leader as this participant
// saw it: from the watch event that told it the node ahead (the leader) was gone to the
// moment it took over (LeaderLatch), or to the look at the queue that showed a new leader, this
// participant or another (LeaderSelector).
import type { FrameworkClient } from '@zkrecipes/framework';
import {
  telemetryOf,
  type Attributes,
  type ClientTelemetry,
  type InstrumentationScope,
  type Span,
} from '@zkrecipes/framework/recipe-support';

/** What this package's metrics and spans are reported under: its name and version. */
export const INSTRUMENTATION_SCOPE: InstrumentationScope = {
  name: '@zkrecipes/leader',
  version: '0.1.0',
};

/** @internal The telemetry of one LeaderLatch or LeaderSelector. */
export class LeaderTelemetry {
  readonly #telemetry: ClientTelemetry;
  readonly #attributes: Attributes;
  readonly #gained: Attributes;
  readonly #lost: Attributes;
  #term: { readonly startMs: number; readonly span: Span } | undefined;
  #watchFiredMs: number | undefined;

  constructor(client: FrameworkClient, recipe: string, path: string) {
    const telemetry = telemetryOf(client, INSTRUMENTATION_SCOPE);
    this.#telemetry = telemetry;
    this.#attributes = telemetry.recipeAttributes(recipe, path);
    this.#gained = telemetry.recipeAttributes(recipe, path, { 'zkrecipes.leader.event': 'gained' });
    this.#lost = telemetry.recipeAttributes(recipe, path, { 'zkrecipes.leader.event': 'lost' });
  }

  /** The watch on the node ahead (or our own) fired: the leader may be gone. */
  watchFired(): void {
    this.#watchFiredMs = performance.now();
  }

  /**
   * LeaderSelector: the first look at the queue since the watch event found a `changed` leader
   * (this participant or another: the time without one ends) or the same one (it never went).
   */
  lookedAfterWatch(changed: boolean): void {
    if (changed) this.#recordLeaderless(performance.now());
    this.#watchFiredMs = undefined;
  }

  /** The recipe looked where it stands: `leading` now (called on every look, changed or not). */
  observed(leading: boolean): void {
    if (this.#term === undefined && !this.#telemetry.recording) {
      // Nothing records (this is on a hand-over's path): no term to time or trace.
      this.#watchFiredMs = undefined;
      return;
    }
    const now = performance.now();
    if (leading && this.#term === undefined) {
      this.#transitions().add(1, this.#gained);
      this.#leading().add(1, this.#attributes);
      this.#recordLeaderless(now);
      this.#term = {
        startMs: now,
        span: this.#telemetry.startSpan('zkrecipes.leader.term', this.#attributes),
      };
    } else if (!leading && this.#term !== undefined) {
      this.#endTerm(now);
    }
    // Either way the wait that watch event began is over: the next one starts with the next.
    this.#watchFiredMs = undefined;
  }

  /** The recipe closed: a term still open ends now. */
  closed(): void {
    if (this.#term !== undefined) this.#endTerm(performance.now());
  }

  /** Records the time since the watch event, if one began a wait that is still open. */
  #recordLeaderless(now: number): void {
    if (this.#watchFiredMs === undefined) return;
    this.#telemetry
      .durationHistogram('zkrecipes.leader.leaderless.duration', {
        description:
          'Time without a leader as this participant saw it: from the watch event that told it the leader was gone to the look that showed a new one',
        unit: 's',
      })
      .record((now - this.#watchFiredMs) / 1000, this.#attributes);
    this.#watchFiredMs = undefined;
  }

  #endTerm(now: number): void {
    const term = this.#term!;
    this.#term = undefined;
    this.#transitions().add(1, this.#lost);
    this.#leading().add(-1, this.#attributes);
    this.#telemetry
      .durationHistogram('zkrecipes.leader.term.duration', {
        description: 'How long a leadership term lasted',
        unit: 's',
      })
      .record((now - term.startMs) / 1000, this.#attributes);
    this.#telemetry.endSpan(term.span);
  }

  #transitions() {
    return this.#telemetry.counter('zkrecipes.leader.transitions', {
      description: 'Leadership gained and lost by this participant',
      unit: '{transition}',
    });
  }

  #leading() {
    return this.#telemetry.upDownCounter('zkrecipes.leader.leading', {
      description: '1 while this participant leads',
      unit: '{participant}',
    });
  }
}
