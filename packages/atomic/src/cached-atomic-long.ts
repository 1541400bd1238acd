import { InvalidArgumentError } from '@zkrecipes/framework';
import { describeValue, untilAborted } from '@zkrecipes/framework/recipe-support';
import type { AtomicStats, AtomicValue } from './atomic-value.js';
import { checkCallOptions, type CallOptions } from './call-options.js';
import { DistributedAtomicLong } from './distributed-atomic-long.js';
import { addInt64 } from './number-codecs.js';

/** A block reserved by one `add(cacheFactor)`: its first value and how many were handed out. */
interface Block {
  readonly first: bigint;
  used: number;
}

const NO_STATS: AtomicStats = Object.freeze({
  optimisticTries: 0,
  promotedLockTries: 0,
  optimisticTimeMs: 0,
  promotedTimeMs: 0,
});

/**
 * Hands out ids from a {@link DistributedAtomicLong} in blocks (Curator's `CachedAtomicLong`):
 * one `add(cacheFactor)` reserves `cacheFactor` values, which `next()` then hands out one by
 * one without talking to ZooKeeper. Every client (a Java one included) that takes blocks or
 * increments on the same counter gets values no one else gets; values of a block not used
 * before the process ends are skipped, never handed out twice.
 *
 * `next()` answers like an increment: `preValue` is the id, `postValue` the id + 1. When the
 * `add` that reserves a new block gives up (its retry policy ran out), `next()` answers
 * `succeeded: false` with 0n and 0n, and the following call tries again. Calls made while a
 * block is being reserved wait for it instead of reserving blocks of their own.
 *
 * @example
 * const ids = new CachedAtomicLong(
 *   new DistributedAtomicLong(client, '/app/ids', new RetryNTimes({ n: 20, sleepBetweenRetriesMs: 5 })),
 *   100,
 * );
 * const id = await ids.next(); // one round trip per 100 ids
 * if (id.succeeded) console.log('id', id.preValue);
 */
export class CachedAtomicLong {
  readonly #number: DistributedAtomicLong;
  readonly #cacheFactor: number;
  #block: Block | undefined;
  #reserving: Promise<unknown> | undefined;

  /**
   * @param number the counter blocks are reserved on
   * @param cacheFactor how many values one block holds: a whole number from 1 to 2^31 - 1 (a
   *   Java int, as Curator's)
   */
  constructor(number: DistributedAtomicLong, cacheFactor: number) {
    if (!(number instanceof DistributedAtomicLong)) {
      throw new InvalidArgumentError(
        `CachedAtomicLong needs a DistributedAtomicLong; got ${describeValue(number)}`,
      );
    }
    if (!Number.isInteger(cacheFactor) || cacheFactor < 1 || cacheFactor > 2_147_483_647) {
      throw new InvalidArgumentError(
        `cacheFactor must be a whole number from 1 to 2147483647; got ${describeValue(cacheFactor)}`,
      );
    }
    this.#number = number;
    this.#cacheFactor = cacheFactor;
  }

  /**
   * The next id (Curator's `next()`): from the current block, or from a new block reserved
   * with one `add(cacheFactor)` on the counter. Always check `succeeded`. `stats` are those of
   * the `add` this call made, if any.
   */
  async next(options: CallOptions = {}): Promise<AtomicValue<bigint>> {
    const signal = checkCallOptions(options);
    for (;;) {
      signal?.throwIfAborted();
      const taken = this.#take(NO_STATS);
      if (taken !== undefined) return taken;
      const other = this.#reserving;
      if (other === undefined) return this.#reserve(signal);
      // Another call is reserving a block: take from it once it is there (or, if that call
      // failed, reserve one ourselves).
      await untilAborted(other, signal);
    }
  }

  async #reserve(signal: AbortSignal | undefined): Promise<AtomicValue<bigint>> {
    const added = this.#number.add(this.#cacheFactor, { signal });
    this.#reserving = added.catch(() => undefined);
    try {
      const result = await added;
      if (!result.succeeded) {
        return Object.freeze({
          succeeded: false,
          preValue: 0n,
          postValue: 0n,
          stats: result.stats,
        });
      }
      this.#block = { first: result.preValue, used: 0 };
      return this.#take(result.stats)!;
    } finally {
      this.#reserving = undefined;
    }
  }

  /** The next value of the current block, or undefined when there is none. */
  #take(stats: AtomicStats): AtomicValue<bigint> | undefined {
    const block = this.#block;
    if (block === undefined) return undefined;
    const preValue = addInt64(block.first, BigInt(block.used));
    block.used += 1;
    if (block.used >= this.#cacheFactor) this.#block = undefined;
    return Object.freeze({ succeeded: true, preValue, postValue: addInt64(preValue, 1n), stats });
  }
}
