// What DistributedAtomicLong and DistributedAtomicInteger share (Curator's DistributedAtomicNumber
// interface, and the worker both of its classes repeat): a DistributedAtomicValue whose bytes
// are a Java number, read and written through a codec.
import { type FrameworkClient, type RetryPolicy } from '@zkrecipes/framework';
import { checkClient, checkRecipeOptions } from '@zkrecipes/framework/recipe-support';
import type { AtomicValue } from './atomic-value.js';
import { checkCallOptions, type CallOptions } from './call-options.js';
import {
  DistributedAtomicValue,
  type DistributedAtomicOptions,
} from './distributed-atomic-value.js';
import type { AtomicNumberCodec } from './number-codecs.js';

/**
 * A number changed only atomically (Curator's `DistributedAtomicNumber`): the operations
 * `DistributedAtomicLong` (`T` bigint) and `DistributedAtomicInteger` (`T` number) share. `A`
 * is what arguments may be.
 *
 * Each change reads the node and writes it back with the version read, retried as
 * `retryPolicy` allows when another writer came first, then optionally under a mutex
 * (`promotedToLock`). Always check `succeeded`: only `get()` is sure to succeed. A missing
 * node reads as 0 (and an empty one too); `increment()` and friends create it.
 */
export abstract class DistributedAtomicNumber<T, A = T> {
  readonly #value: DistributedAtomicValue;
  readonly #path: string;
  readonly #codec: AtomicNumberCodec<T>;

  /** @internal For this package's number classes. */
  protected constructor(
    recipe: string,
    codec: AtomicNumberCodec<T>,
    client: FrameworkClient,
    path: string,
    retryPolicy: RetryPolicy,
    options: DistributedAtomicOptions,
  ) {
    checkClient(recipe, client);
    checkRecipeOptions(recipe, options, ['promotedToLock']);
    this.#value = new DistributedAtomicValue(client, path, retryPolicy, options);
    this.#path = path;
    this.#codec = codec;
  }

  /** The node's path. */
  get path(): string {
    return this.#path;
  }

  /**
   * The current value (`succeeded` always true; 0 when there is no node). Rejects with
   * CorruptedValueError when the node holds too few bytes for the number.
   */
  async get(options: CallOptions = {}): Promise<AtomicValue<T>> {
    return this.#freeze(await this.#value.get(options));
  }

  /** Sets the value without any atomicity (Curator's `forceSet`); creates the node if needed. */
  async forceSet(newValue: A, options: CallOptions = {}): Promise<void> {
    await this.#value.forceSet(this.#bytes('newValue', newValue), options);
  }

  /**
   * Writes `newValue` if the number is exactly `expectedValue` (Curator's `compareAndSet`): one
   * read and one versioned write. A missing node is never created, not even when expecting 0;
   * on failure `postValue` is 0 (Curator's rule).
   */
  async compareAndSet(
    expectedValue: A,
    newValue: A,
    options: CallOptions = {},
  ): Promise<AtomicValue<T>> {
    const expected = this.#bytes('expectedValue', expectedValue);
    const bytes = this.#bytes('newValue', newValue);
    return this.#freeze(await this.#value.compareAndSetBytes(expected, bytes, options));
  }

  /** Sets `newValue` whatever the number was, atomically (Curator's `trySet`). */
  async trySet(newValue: A, options: CallOptions = {}): Promise<AtomicValue<T>> {
    return this.#freeze(await this.#value.trySet(this.#bytes('newValue', newValue), options));
  }

  /** Creates the node with `value` if there is none: true when it did (Curator's `initialize`). */
  async initialize(value: A, options: CallOptions = {}): Promise<boolean> {
    return this.#value.initialize(this.#bytes('value', value), options);
  }

  /** Adds 1 (Curator's `increment`). */
  async increment(options: CallOptions = {}): Promise<AtomicValue<T>> {
    return this.#worker(this.#codec.one, options);
  }

  /** Subtracts 1 (Curator's `decrement`). */
  async decrement(options: CallOptions = {}): Promise<AtomicValue<T>> {
    return this.#worker(this.#codec.negate(this.#codec.one), options);
  }

  /** Adds `delta` (Curator's `add`), wrapping around as Java does. */
  async add(delta: A, options: CallOptions = {}): Promise<AtomicValue<T>> {
    return this.#worker(this.#codec.check('delta', delta), options);
  }

  /** Subtracts `delta` (Curator's `subtract`: adds `-1 * delta`, wrapping as Java does). */
  async subtract(delta: A, options: CallOptions = {}): Promise<AtomicValue<T>> {
    return this.#worker(this.#codec.negate(this.#codec.check('delta', delta)), options);
  }

  async #worker(delta: T, options: CallOptions): Promise<AtomicValue<T>> {
    const signal = checkCallOptions(options);
    const { add, fromBytes, toBytes } = this.#codec;
    const result = await this.#value.trySetWith(
      (previous) => toBytes(add(fromBytes(this.#path, previous), delta)),
      signal,
    );
    return this.#freeze(result);
  }

  #bytes(name: string, value: unknown): Uint8Array {
    return this.#codec.toBytes(this.#codec.check(name, value));
  }

  /** The bytes' outcome as numbers (a frozen copy). */
  #freeze(result: AtomicValue<Uint8Array | undefined>): AtomicValue<T> {
    return Object.freeze({
      succeeded: result.succeeded,
      preValue: this.#codec.fromBytes(this.#path, result.preValue),
      postValue: this.#codec.fromBytes(this.#path, result.postValue),
      stats: Object.freeze({ ...result.stats }),
    });
  }
}
