// Bounds on how many nodes a queue may hold, checked before a put writes anything.
//
// - `maxItems` (Curator's): a full queue makes put wait for room, or fail after its timeout.
// - `hardMaxItems`: a ceiling that protects the ensemble. Past ~50,000 children a listing of the
//   queue is over ZooKeeper's 1 MB packet limit (Java clients cannot read it at all), every
//   consumer listing gets slow, and all of it sits in every server's memory. Puts fail at once.
//
// Counting is cheap: the count from the last listing plus our own puts since, so the queue is
// listed only when that estimate reaches a bound. Other producers' puts are not seen until then,
// so like Curator's the bound is approximate; consumers' deletes only make it stricter.
import { type FrameworkClient } from '@zkrecipes/framework';
import {
  type CallLimits,
  TIMED_OUT,
  connectionStreamOf,
  waitForWake,
  Wake,
  watchSignal,
} from '@zkrecipes/framework/recipe-support';
import { QueueFullError } from './queue-full-error.js';

/** The default ceiling on a queue's nodes (see put-limiter.ts). */
export const DEFAULT_HARD_MAX_ITEMS = 50_000;

/** Options of {@link PutLimiter.reserve}. */
export interface ReserveOptions {
  /** The put's limits: how long it may wait for room under maxItems. Default: no limit. */
  readonly limits?: CallLimits | undefined;
  /** What its requests and its wait get: the put's limits and the queue's close together. */
  readonly signal?: AbortSignal | undefined;
}

export class PutLimiter {
  readonly #client: FrameworkClient;
  readonly #path: string;
  readonly #maxItems: number | undefined;
  readonly #hardMaxItems: number;
  /** The lower of the two bounds. */
  readonly #bound: number;
  #estimate: number | undefined;

  constructor(
    client: FrameworkClient,
    path: string,
    maxItems: number | undefined,
    hardMaxItems: number,
  ) {
    this.#client = client;
    this.#path = path;
    this.#maxItems = maxItems;
    this.#hardMaxItems = hardMaxItems;
    this.#bound = Math.min(maxItems ?? Infinity, hardMaxItems);
  }

  /** Seeds the estimate with a count the caller just listed. */
  seed(count: number): void {
    this.#estimate = count;
  }

  /**
   * Counts one more node when the estimate says it fits, without a request: the common case,
   * which needs no await. False means call {@link reserve}.
   */
  tryReserve(): boolean {
    if (this.#estimate === undefined || this.#estimate >= this.#bound) return false;
    this.#estimate += 1;
    return true;
  }

  /** Resolves when one more node fits; rejects with QueueFullError when it does not. */
  async reserve(options: ReserveOptions = {}): Promise<void> {
    const { limits, signal } = options;
    const bound = this.#bound;
    const waits = this.#maxItems !== undefined && this.#maxItems <= this.#hardMaxItems;
    const deadline = limits?.atMs;
    for (;;) {
      if (this.tryReserve()) return;
      const wake = waits ? new Wake() : undefined;
      try {
        // Only on a full queue: the watch is silenced with the wait, the read ends with the put.
        const children = await this.#client.getChildren(
          this.#path,
          wake === undefined
            ? { signal }
            : { watch: wake.watch, signal: watchSignal(wake, signal) },
        );
        this.#estimate = children.length;
        if (children.length < bound) continue;
        if (wake === undefined) {
          throw new QueueFullError(
            this.#path,
            'hardMaxItems',
            this.#hardMaxItems,
            children.length,
            'ZooKeeper is not a bulk store: a listing of more children passes its 1 MB packet ' +
              'limit and slows every server; consume faster, bound producers with maxItems, or ' +
              'use a message broker',
          );
        }
        signal?.throwIfAborted();
        const woken =
          deadline !== undefined && deadline <= performance.now()
            ? TIMED_OUT
            : await waitForWake(wake.event, {
                deadline,
                signal,
                closed: connectionStreamOf(this.#client).closedSignal,
                path: this.#path,
              }).catch((error: unknown) => {
                // `signal` carries the deadline too: its expiry is this wait's timeout.
                if (limits?.ranOut(error) === true) return TIMED_OUT;
                throw error;
              });
        if (woken === TIMED_OUT) {
          throw new QueueFullError(
            this.#path,
            'maxItems',
            bound,
            children.length,
            `no room within ${limits?.timeoutMs ?? 0} ms`,
          );
        }
      } finally {
        wake?.cancel();
      }
    }
  }
}
