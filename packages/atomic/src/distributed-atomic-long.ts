import { type FrameworkClient, type RetryPolicy } from '@zkrecipes/framework';
import { checkClient, checkRecipeOptions } from '@zkrecipes/framework/recipe-support';
import type { AtomicValue } from './atomic-value.js';
import { checkCallOptions, type CallOptions } from './call-options.js';
import {
  DistributedAtomicValue,
  type DistributedAtomicOptions,
} from './distributed-atomic-value.js';
import { addInt64, checkInt64, int64FromBytes, int64ToBytes } from './number-codecs.js';

/**
 * A counter changed only atomically (Curator's `DistributedAtomicLong`), stored as Curator
 * stores it: a Java long, 8 bytes big-endian. Values are bigints; arguments may also be
 * numbers that are safe integers. Arithmetic wraps around at 64 bits, as Java's does.
 *
 * Each change reads the node and writes it back with the version read, retried as
 * `retryPolicy` allows when another writer came first, then optionally under a mutex
 * (`promotedToLock`). Always check `succeeded`: only `get()` is sure to succeed. A missing
 * node reads as 0 (and an empty one too); `increment()` and friends create it.
 *
 * @example
 * const orders = new DistributedAtomicLong(client, '/app/counters/orders',
 *   new RetryNTimes({ n: 20, sleepBetweenRetriesMs: 5 }));
 * const result = await orders.increment();
 * if (result.succeeded) console.log('order number', result.postValue); // e.g. 42n
 */
export class DistributedAtomicLong {
  readonly #value: DistributedAtomicValue;
  readonly #path: string;

  /**
   * @param path the node holding the counter
   * @param retryPolicy how often, and after what pause, an optimistic attempt that lost a race
   *   is repeated
   */
  constructor(
    client: FrameworkClient,
    path: string,
    retryPolicy: RetryPolicy,
    options: DistributedAtomicOptions = {},
  ) {
    checkClient('DistributedAtomicLong', client);
    checkRecipeOptions('DistributedAtomicLong', options, ['promotedToLock']);
    this.#value = new DistributedAtomicValue(client, path, retryPolicy, options);
    this.#path = path;
  }

  /** The node's path. */
  get path(): string {
    return this.#path;
  }

  /**
   * The current value (`succeeded` always true; 0n when there is no node). Rejects with
   * CorruptedValueError when the node holds 1 to 7 bytes.
   */
  async get(options: CallOptions = {}): Promise<AtomicValue<bigint>> {
    const result = await this.#value.get(options);
    return this.#toLong(result);
  }

  /** Sets the value without any atomicity (Curator's `forceSet`); creates the node if needed. */
  async forceSet(newValue: bigint | number, options: CallOptions = {}): Promise<void> {
    await this.#value.forceSet(int64ToBytes(checkInt64('newValue', newValue)), options);
  }

  /**
   * Writes `newValue` if the counter is exactly `expectedValue` (Curator's `compareAndSet`):
   * one read and one versioned write. A missing node is never created, not even when
   * expecting 0; on failure `postValue` is 0n (Curator's rule).
   */
  async compareAndSet(
    expectedValue: bigint | number,
    newValue: bigint | number,
    options: CallOptions = {},
  ): Promise<AtomicValue<bigint>> {
    const expected = int64ToBytes(checkInt64('expectedValue', expectedValue));
    const bytes = int64ToBytes(checkInt64('newValue', newValue));
    const result = await this.#value.compareAndSetBytes(expected, bytes, options);
    return result.freeze((value) => int64FromBytes(this.#path, value));
  }

  /** Sets `newValue` whatever the counter was, atomically (Curator's `trySet`). */
  async trySet(newValue: bigint | number, options: CallOptions = {}): Promise<AtomicValue<bigint>> {
    const bytes = int64ToBytes(checkInt64('newValue', newValue));
    return this.#toLong(await this.#value.trySet(bytes, options));
  }

  /** Creates the node with `value` if there is none: true when it did (Curator's `initialize`). */
  async initialize(value: bigint | number, options: CallOptions = {}): Promise<boolean> {
    return this.#value.initialize(int64ToBytes(checkInt64('value', value)), options);
  }

  /** Adds 1 (Curator's `increment`). */
  increment(options: CallOptions = {}): Promise<AtomicValue<bigint>> {
    return this.#worker(1n, options);
  }

  /** Subtracts 1 (Curator's `decrement`). */
  decrement(options: CallOptions = {}): Promise<AtomicValue<bigint>> {
    return this.#worker(-1n, options);
  }

  /** Adds `delta` (Curator's `add`). */
  async add(delta: bigint | number, options: CallOptions = {}): Promise<AtomicValue<bigint>> {
    return this.#worker(checkInt64('delta', delta), options);
  }

  /** Subtracts `delta` (Curator's `subtract`: adds `-1 * delta`, wrapping as Java does). */
  async subtract(delta: bigint | number, options: CallOptions = {}): Promise<AtomicValue<bigint>> {
    return this.#worker(BigInt.asIntN(64, -checkInt64('delta', delta)), options);
  }

  async #worker(delta: bigint, options: CallOptions): Promise<AtomicValue<bigint>> {
    const signal = checkCallOptions(options);
    const result = await this.#value.trySetWith(
      (previous) => int64ToBytes(addInt64(int64FromBytes(this.#path, previous), delta)),
      signal,
    );
    return result.freeze((value) => int64FromBytes(this.#path, value));
  }

  #toLong(result: AtomicValue<Uint8Array | undefined>): AtomicValue<bigint> {
    return Object.freeze({
      succeeded: result.succeeded,
      preValue: int64FromBytes(this.#path, result.preValue),
      postValue: int64FromBytes(this.#path, result.postValue),
      stats: result.stats,
    });
  }
}
