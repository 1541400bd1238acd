// The queues' metrics and spans: items put, consumed and delivered again, how long puts,
// takes (SimpleDistributedQueue) and consumer calls take, the backlog the queue saw at its last listing, and a span around each
// item's processing. The item's trace context is not carried in the item: Curator's envelope
// has no room for it, and it stays byte-identical so Java peers can read every item.
import type { FrameworkClient } from '@zkrecipes/framework';
import {
  errorTypeOf,
  telemetryOf,
  type Attributes,
  type ClientTelemetry,
  type InstrumentationScope,
} from '@zkrecipes/framework/recipe-support';
import type { QueueEvent } from './queue-events.js';

/** What this package's metrics and spans are reported under: its name and version. */
export const INSTRUMENTATION_SCOPE: InstrumentationScope = {
  name: '@zkrecipes/queues',
  version: '0.1.0',
};

type Outcome = 'ok' | 'error';
/**
 * How a take (SimpleDistributedQueue's take, poll, remove) ended: `ok` with an item, `empty`
 * when it looked without waiting and found none, `timed_out` when its wait ran out, `error`.
 */
export type TakeOutcome = Outcome | 'empty' | 'timed_out';

/** What putStarted returns when no SDK records anything. */
const NOTHING = (): void => undefined;
type Redelivery = 'requeue' | 'lock_lost' | 'released';

/** One consumer call being measured; `end` it once. */
export interface ProcessTrace {
  end(error?: unknown): void;
}

/** @internal The telemetry of one queue. */
export class QueueTelemetry {
  readonly #telemetry: ClientTelemetry;
  readonly #attributes: Attributes;
  readonly #outcomes: Record<TakeOutcome, Attributes>;
  /** The `error` outcome's attributes with each `error.type` met. */
  readonly #errorAttributes = new Map<string, Attributes>();
  readonly #redeliveries: Record<Redelivery, Attributes>;
  /** Absent for SimpleDistributedQueue: it lists only to take, so a producer never would. */
  readonly #backlog: (() => number) | undefined;
  #stopBacklog: (() => void) | undefined;

  constructor(client: FrameworkClient, recipe: string, path: string, backlog?: () => number) {
    const telemetry = telemetryOf(client, INSTRUMENTATION_SCOPE);
    this.#telemetry = telemetry;
    this.#backlog = backlog;
    const with_ = (extra: Attributes): Attributes =>
      telemetry.recipeAttributes(recipe, path, extra);
    this.#attributes = with_({});
    this.#outcomes = {
      ok: with_({ 'zkrecipes.queue.outcome': 'ok' }),
      error: with_({ 'zkrecipes.queue.outcome': 'error' }),
      empty: with_({ 'zkrecipes.queue.outcome': 'empty' }),
      timed_out: with_({ 'zkrecipes.queue.outcome': 'timed_out' }),
    };
    this.#redeliveries = {
      requeue: with_({ 'zkrecipes.queue.reason': 'requeue' }),
      lock_lost: with_({ 'zkrecipes.queue.reason': 'lock_lost' }),
      released: with_({ 'zkrecipes.queue.reason': 'released' }),
    };
  }

  /** The queue started: its backlog is reported until `stopped`. */
  started(): void {
    if (this.#backlog === undefined) return;
    this.#stopBacklog ??= this.#telemetry.observe(
      'zkrecipes.queue.backlog',
      { description: 'Item nodes in the queue at its last listing', unit: '{node}' },
      this.#attributes,
      this.#backlog,
    );
  }

  stopped(): void {
    this.#stopBacklog?.();
    this.#stopBacklog = undefined;
  }

  /** A put began; the returned function records its duration once it ended. */
  putStarted(): (error?: unknown) => void {
    if (!this.#telemetry.metricsEnabled) return NOTHING;
    const startMs = performance.now();
    return (error) =>
      this.#telemetry
        .durationHistogram('zkrecipes.queue.put.duration', {
          description: 'How long put() took, by outcome',
          unit: 's',
        })
        .record(
          (performance.now() - startMs) / 1000,
          error === undefined ? this.#outcomes.ok : this.#failedWith(error),
        );
  }

  /**
   * A take began (SimpleDistributedQueue); the returned function records its duration, the
   * wait for an item included, once it ended, and counts the item consumed when it got one.
   */
  takeStarted(): (outcome: TakeOutcome, error?: unknown) => void {
    if (!this.#telemetry.metricsEnabled) return NOTHING;
    const startMs = performance.now();
    return (outcome, error) => {
      this.#telemetry
        .durationHistogram('zkrecipes.queue.take.duration', {
          description: 'How long a take took, its wait for an item included, by outcome',
          unit: 's',
        })
        .record(
          (performance.now() - startMs) / 1000,
          outcome === 'error' ? this.#failedWith(error) : this.#outcomes[outcome],
        );
      if (outcome === 'ok') {
        this.#items('consumed', 'Items consumed and gone from the queue').add(1, this.#attributes);
      }
    };
  }

  /** A consumer call begins (one item): a span and a duration. */
  processStarted(node: string): ProcessTrace {
    const startMs = performance.now();
    const span = this.#telemetry.startSpan(
      'zkrecipes.queue.process',
      this.#telemetry.recordPaths
        ? { ...this.#attributes, 'zkrecipes.queue.node': node }
        : this.#attributes,
    );
    return {
      end: (error) => {
        this.#telemetry
          .durationHistogram('zkrecipes.queue.process.duration', {
            description: 'How long the consumer took with an item, by outcome',
            unit: 's',
          })
          .record(
            (performance.now() - startMs) / 1000,
            error === undefined ? this.#outcomes.ok : this.#failedWith(error),
          );
        this.#telemetry.endSpan(span, error);
      },
    };
  }

  /** Counts what the queue reports about its items. */
  event(event: QueueEvent): void {
    switch (event.type) {
      case 'put':
        this.#items('put', 'Items put').add(event.count, this.#attributes);
        return;
      case 'consumed':
        this.#items('consumed', 'Items consumed and gone from the queue').add(
          event.count,
          this.#attributes,
        );
        return;
      case 'consumerError':
        if (event.action === 'requeue') this.#redelivered('requeue');
        return;
      case 'lockLost':
        this.#redelivered('lock_lost');
        return;
      case 'released':
        this.#redelivered('released');
        return;
      case 'corrupt':
        this.#items('corrupt', 'Item nodes that could not be read (deleted or parked)').add(
          1,
          this.#attributes,
        );
        return;
      case 'takeError':
        return;
    }
  }

  /** The attributes of a call that failed with `error`: the `error` outcome and `error.type`. */
  #failedWith(error: unknown): Attributes {
    const type = errorTypeOf(error);
    let attributes = this.#errorAttributes.get(type);
    if (attributes === undefined) {
      attributes = { ...this.#outcomes.error, 'error.type': type };
      this.#errorAttributes.set(type, attributes);
    }
    return attributes;
  }

  #redelivered(reason: Redelivery): void {
    this.#items('redelivered', 'Item nodes left in the queue to be delivered again, by reason').add(
      1,
      this.#redeliveries[reason],
    );
  }

  #items(what: string, description: string) {
    return this.#telemetry.counter(`zkrecipes.queue.items.${what}`, {
      description,
      unit: what === 'put' || what === 'consumed' ? '{item}' : '{node}',
    });
  }
}
