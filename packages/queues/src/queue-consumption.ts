// The consuming side of a DistributedQueue: callback workers and async iterators on one taker,
// what happens to an item after its consumer ran (Curator's processNormally and
// processWithLockSafety), and stopping at close().
import { setTimeout as sleep } from 'node:timers/promises';
import {
  BoundedExponentialBackoffRetry,
  ClosedError,
  type FrameworkClient,
  isClosed,
  isRetryable,
  joinPath,
  type Logger,
  retryLoop,
} from '@zkrecipes/framework';
import {
  CallLimits,
  reportRecipeFailure,
  whileConnected,
} from '@zkrecipes/framework/recipe-support';
import { Closing } from './closing.js';
import { ErrorMode } from './error-mode.js';
import { decodeEnvelope } from './item-envelope.js';
import type { LeaseEnd, LockSafety } from './lock-safety.js';
import type { QueueEvents } from './queue-events.js';
import type { QueueSerializer } from './queue-serializer.js';
import type { QueueTaker, TakenItem } from './queue-taker.js';

/** What a consumer is told besides the item. */
export interface ConsumeContext {
  /**
   * This item's own signal. Safe mode: aborts when the item's lock may be lost (the client's
   * error-policy states: SUSPENDED and LOST by default) or the queue closes, so a long job can
   * stop early; finishing an item whose lock was lost is refused anyway. Plain mode: aborts
   * when the queue closes. A listener added to it goes away with the item.
   */
  readonly signal: AbortSignal;
  /** The item's node path. */
  readonly node: string;
}

/**
 * Curator's `QueueConsumer.consumeMessage`: resolving means the item is done; throwing (or
 * rejecting) is a failure, handled by the queue's error mode in safe mode.
 */
export type QueueConsumer<T> = (item: T, context: ConsumeContext) => unknown;

export interface QueueConsumptionOptions<T> {
  readonly client: FrameworkClient;
  readonly taker: QueueTaker;
  readonly safety: LockSafety | undefined;
  readonly serializer: QueueSerializer<T>;
  readonly errorMode: ErrorMode;
  readonly events: QueueEvents;
  readonly logger: Logger;
  /** Where unreadable items are parked instead of deleted (see `deadLetterPath`). */
  readonly deadLetterPath: string | undefined;
}

interface InFlight {
  readonly taken: TakenItem;
  /** close() gave up waiting and handed the item back: its late outcome is ignored. */
  abandoned: boolean;
  /** Its lease is being ended: close() leaves it alone. */
  ending: boolean;
  /** Settles when the consumer is done with the item (its lease may still be ending). */
  readonly done: Promise<void>;
  readonly settle: () => void;
}

/** How ending a lease went. */
type EndOutcome =
  | { readonly status: 'done'; readonly requeuedAs?: string | undefined }
  | { readonly status: 'lost' | 'skipped' | 'failed' };

const MAX_BACKOFF_MS = 5000;

/**
 * Between failed takes: 100 ms after the first failure, growing to at most 5 s apart, until the
 * queue stops or the caller gives up. Before retryLoop this doubled a fixed 100 ms (100, 200,
 * 400, ... 5 s); the policy draws each delay at random around the same doubling (100-300 ms,
 * then 100-700 ms, ...).
 */
const TAKE_RETRY_POLICY = new BoundedExponentialBackoffRetry({
  baseSleepMs: 100,
  maxSleepMs: MAX_BACKOFF_MS,
  maxRetries: Number.MAX_SAFE_INTEGER,
});

export class QueueConsumption<T> {
  readonly #options: QueueConsumptionOptions<T>;
  readonly #stopped = new Closing();
  readonly #inFlight = new Set<InFlight>();
  /** Plain mode: the signals of the items being consumed, aborted by stop(). */
  readonly #itemSignals = new Set<AbortController>();
  /** Takes under way: stop() waits for them, since they may still come back with an item. */
  readonly #taking = new Set<Promise<void>>();

  constructor(options: QueueConsumptionOptions<T>) {
    this.#options = options;
  }

  /** Runs `concurrency` workers that feed `consumer` until stop(). They never reject. */
  startWorkers(consumer: QueueConsumer<T>, concurrency: number): void {
    for (let i = 0; i < concurrency; i += 1) void this.#work(consumer);
  }

  /**
   * An iterator over items. An item counts as done when the next one is asked for; leaving the
   * loop while holding one (break, return, throw) hands it back unprocessed in safe mode.
   * Its waits for the connection (a take, the end of a lease) end when the queue stops.
   */
  async *iterate(signal: AbortSignal | undefined): AsyncGenerator<T, void, undefined> {
    // One per iterator, not per item: `using` is fine here.
    using limits = CallLimits.of(this.#options.client, undefined, signal);
    for (;;) {
      const entry = await this.#next(limits);
      if (entry === null) return;
      const { taken } = entry;
      let handled = false;
      try {
        const items = await this.#decode(taken, entry);
        if (items !== undefined) {
          for (const item of items) yield item;
          await this.#untilStopped(this.#succeed(taken, entry, items.length));
        }
        handled = true;
      } finally {
        if (!handled) {
          // Handed back in a round trip; without a connection, in the background.
          await whileConnected(this.#options.client).wait(
            this.#end(taken, entry, { kind: 'release' }),
          );
        }
        this.#leave(entry);
      }
    }
  }

  /**
   * Stops taking (pending takes end at once); waits up to `timeoutMs` for consumer calls in
   * flight, then hands back (safe mode) the items still held so other consumers get them. Ends
   * of leases still under way go on in the background (the lock safety waits for them).
   */
  async stop(timeoutMs: number): Promise<void> {
    const closed = new ClosedError({ detail: 'the queue is closed' });
    this.#stopped.close(closed);
    this.#options.taker.close();
    for (const controller of this.#itemSignals) controller.abort(closed);
    this.#itemSignals.clear();
    const settled = Promise.all(this.#taking).then(() =>
      Promise.all([...this.#inFlight].map((entry) => entry.done)),
    );
    const timer = new AbortController();
    const timeout = sleep(timeoutMs, undefined, { signal: timer.signal }).catch(() => undefined);
    await Promise.race([settled, timeout]);
    timer.abort();
    for (const entry of this.#inFlight) {
      if (entry.abandoned || entry.ending) continue;
      entry.abandoned = true;
      void this.#end(entry.taken, entry, { kind: 'release' }, true);
    }
  }

  async #work(consumer: QueueConsumer<T>): Promise<void> {
    for (;;) {
      const entry = await this.#next(undefined);
      if (entry === null) return;
      try {
        await this.#consume(entry.taken, entry, consumer);
      } finally {
        this.#leave(entry);
      }
    }
  }

  /**
   * Takes the next item and registers it as in flight; null once the iterator's signal aborts,
   * the queue stops or the client closes. A safe-mode item that arrives after stop() is handed
   * straight back; a plain-mode one is already off the queue, so it is still delivered.
   */
  async #next(limits: CallLimits | undefined): Promise<InFlight | null> {
    let finished = (): void => undefined;
    const taking = new Promise<void>((resolve) => (finished = resolve));
    this.#taking.add(taking);
    try {
      for (;;) {
        const taken = await this.#take(limits);
        if (taken === null) return null;
        if (taken === undefined) continue;
        let settle = (): void => undefined;
        const done = new Promise<void>((resolve) => (settle = resolve));
        const entry: InFlight = { taken, abandoned: false, ending: false, done, settle };
        this.#inFlight.add(entry);
        if (!this.#stopped.closed || taken.lease === undefined) return entry;
        void this.#end(taken, entry, { kind: 'release' });
        this.#leave(entry);
        return null;
      }
    } finally {
      this.#taking.delete(taking);
      finished();
    }
  }

  #leave(entry: InFlight): void {
    this.#inFlight.delete(entry);
    entry.settle();
  }

  /** The next item; undefined to try again, null once stopped (or the client closed). */
  async #take(limits: CallLimits | undefined): Promise<TakenItem | undefined | null> {
    const stopped = this.#stopped;
    const gaveUp = (error: unknown): boolean =>
      stopped.closed || limits?.callerSignal?.aborted === true || isClosed(error);
    try {
      return await retryLoop(() => this.#options.taker.take({ wait: true, limits }), {
        policy: TAKE_RETRY_POLICY,
        // Any failure is retried (as before), until the queue stops or the caller gives up.
        isRetryable: (error) => !gaveUp(error),
        onRetry: ({ delayMs, error }) => {
          // An outage retries quietly (a warning per attempt); anything else is a failure to
          // report.
          if (isRetryable(error)) {
            this.#options.logger.warn('taking from the queue failed; retrying', { delayMs, error });
          } else {
            reportRecipeFailure(
              this.#options.client,
              undefined,
              error,
              `taking from the queue (retrying in ${delayMs} ms)`,
            );
          }
          this.#options.events.emit({ type: 'takeError', error });
        },
        // The wait ends early on the queue's close and on the caller's deadline or signal.
        sleep: (ms) => stopped.until(sleep(ms, undefined, { signal: stopped.signal }), limits),
      });
    } catch {
      // Only a stop, the caller's limits or the client's close end the retrying.
      return null;
    }
  }

  /** Waits for `work` until the queue stops (it then goes on in the background). */
  #untilStopped(work: Promise<unknown>): Promise<unknown> {
    return this.#stopped.until(work).catch(() => undefined);
  }

  /** Plain mode: the item's own signal, aborted by stop(); released with the item. */
  #itemSignal(): AbortController {
    const controller = new AbortController();
    if (this.#stopped.closed) controller.abort(this.#stopped.signal.reason);
    else this.#itemSignals.add(controller);
    return controller;
  }

  async #consume(taken: TakenItem, entry: InFlight, consumer: QueueConsumer<T>): Promise<void> {
    const items = await this.#decode(taken, entry);
    if (items === undefined) return;
    let own: AbortController | undefined;
    const signal = taken.lease?.signal ?? (own = this.#itemSignal()).signal;
    try {
      await this.#consumeItems(taken, entry, consumer, items, { signal, node: taken.path });
    } finally {
      if (own !== undefined) this.#itemSignals.delete(own);
    }
  }

  async #consumeItems(
    taken: TakenItem,
    entry: InFlight,
    consumer: QueueConsumer<T>,
    items: readonly T[],
    context: ConsumeContext,
  ): Promise<void> {
    const { client, errorMode, events } = this.#options;
    for (const item of items) {
      const trace = events.telemetry?.processStarted(taken.path);
      try {
        await consumer(item, context);
        trace?.end();
      } catch (error) {
        trace?.end(error ?? 'consumer failed');
        reportRecipeFailure(client, undefined, error, `queue consumer of ${taken.path}`);
        if (taken.lease === undefined) {
          events.emit({ type: 'consumerError', path: taken.path, error, action: 'none' });
          continue;
        }
        if (errorMode === ErrorMode.DELETE) {
          events.emit({ type: 'consumerError', path: taken.path, error, action: 'delete' });
          continue;
        }
        // Curator's REQUEUE: the whole node goes back to the end of the queue.
        const outcome = await this.#end(taken, entry, { kind: 'requeue', data: taken.data });
        if (outcome.status === 'done') {
          const { requeuedAs } = outcome;
          events.emit({
            type: 'consumerError',
            path: taken.path,
            error,
            action: 'requeue',
            requeuedAs,
          });
        }
        return;
      }
    }
    await this.#succeed(taken, entry, items.length);
  }

  async #succeed(taken: TakenItem, entry: InFlight, count: number): Promise<void> {
    if (taken.lease !== undefined) {
      if ((await this.#end(taken, entry, { kind: 'delete' })).status !== 'done') return;
    }
    this.#options.events.emit({ type: 'consumed', path: taken.path, count });
  }

  /**
   * The items of a node. A node that cannot be read is reported and deleted (as Curator does),
   * or, with `deadLetterPath`, first parked there with its bytes. A park that fails leaves a
   * safe-mode item in the queue (its lock is handed back); a plain-mode item, already taken
   * off the queue, is then logged with its bytes, never dropped silently.
   */
  async #decode(taken: TakenItem, entry: InFlight): Promise<T[] | undefined> {
    try {
      return decodeEnvelope(taken.data).map((bytes) => this.#options.serializer.deserialize(bytes));
    } catch (error) {
      const { client, events, deadLetterPath } = this.#options;
      let deadLetter: string | undefined;
      if (deadLetterPath !== undefined) {
        deadLetter = await this.#park(taken, deadLetterPath);
        if (deadLetter === undefined) {
          if (taken.lease !== undefined) await this.#end(taken, entry, { kind: 'release' });
          return undefined;
        }
      }
      reportRecipeFailure(
        client,
        undefined,
        error,
        `corrupted queue item ${taken.path}, ` +
          (deadLetter === undefined ? 'deleted' : `parked as ${deadLetter}`),
      );
      events.emit({ type: 'corrupt', path: taken.path, error, deadLetter });
      if (taken.lease !== undefined) await this.#end(taken, entry, { kind: 'delete' });
      return undefined;
    }
  }

  /** Writes an unreadable node's bytes under `deadLetterPath`; its path, or undefined. */
  async #park(taken: TakenItem, deadLetterPath: string): Promise<string | undefined> {
    const { name } = taken;
    try {
      return await this.#options.client.create(joinPath(deadLetterPath, name), {
        data: taken.data,
        createParents: true,
        orSetData: true,
      });
    } catch (error) {
      const { client, logger } = this.#options;
      reportRecipeFailure(
        client,
        undefined,
        error,
        `parking the unreadable queue item ${taken.path}`,
      );
      // Not a second report of the failure: the only copy of the item's bytes, for recovery.
      logger.warn('the unreadable queue item that could not be parked', {
        path: taken.path,
        bytes: taken.data.toString('base64'),
      });
      return undefined;
    }
  }

  /**
   * Ends a lease (safe mode; a no-op in plain mode, where the item is already gone). Skipped
   * when close() already handed the item back (unless close() itself is doing it). Never
   * throws: failures are logged.
   */
  async #end(
    taken: TakenItem,
    entry: InFlight,
    end: LeaseEnd,
    byClose = false,
  ): Promise<EndOutcome> {
    const { client, safety, taker, events, logger } = this.#options;
    if (taken.lease === undefined || safety === undefined) return { status: 'done' };
    if (entry.abandoned && !byClose) return { status: 'skipped' };
    entry.ending = true;
    // The consumer is done with it: stop() need not wait for the lease's end.
    entry.settle();
    try {
      const outcome = await safety.finish(taken.lease, end);
      if (outcome.kind === 'lost') {
        taker.finished(taken.name);
        logger.warn('lost the lock on a queue item before finishing it; it stays queued', {
          path: taken.path,
        });
        events.emit({ type: 'lockLost', path: taken.path });
        return { status: 'lost' };
      }
      if (end.kind === 'release') {
        taker.restore(taken.name);
        events.emit({ type: 'released', path: taken.path });
      } else {
        taker.finished(taken.name);
      }
      return { status: 'done', requeuedAs: outcome.requeuedAs };
    } catch (error) {
      taker.finished(taken.name);
      reportRecipeFailure(
        client,
        undefined,
        error,
        `finishing the queue item ${taken.path} (its lock goes with the session)`,
      );
      return { status: 'failed' };
    } finally {
      entry.ending = false;
    }
  }
}
