import {
  type FrameworkClient,
  isBadVersion,
  isNodeExists,
  isNoNode,
  isOutcomeUnknown,
  type RetryPolicy,
  retryLoop,
  type Stat,
  validatePath,
} from '@zkrecipes/framework';
import {
  checkClient,
  checkRecipeOptions,
  checkRetryPolicy,
} from '@zkrecipes/framework/recipe-support';
import { InterProcessMutex, runInFlow } from '@zkrecipes/locks';
import { type AtomicValue, MutableAtomicValue } from './atomic-value.js';
import { checkBytes, sameBytes } from './bytes.js';
import { checkCallOptions, type CallOptions } from './call-options.js';
import { checkPromotion, type CheckedPromotion, type PromotedToLock } from './promoted-to-lock.js';

/** Options of {@link DistributedAtomicValue} and `DistributedAtomicLong`. */
export interface DistributedAtomicOptions {
  /** Take a mutex when the optimistic attempts give up. Default: optimistic only. */
  readonly promotedToLock?: PromotedToLock | undefined;
}

/** @internal Makes the next value from the previous one (undefined: no node). */
export type MakeValue = (previous: Uint8Array | undefined) => Uint8Array;

/** What one attempt read: the node's bytes and Stat, or undefined when there is no node. */
type Current = { readonly data: Uint8Array; readonly stat: Stat } | undefined;

/** One attempt lost a race (BAD_VERSION, NODE_EXISTS, NO_NODE): the policy decides on a retry. */
class Contended extends Error {
  override name = 'Contended';
}

/**
 * A value of bytes changed only atomically (Curator's `DistributedAtomicValue`): every change
 * reads the node and writes it back with the version read (a compare-and-set), retrying as
 * `retryPolicy` allows when another writer came first; optionally it then takes a mutex and
 * tries again under it ({@link PromotedToLock}). The node's data is the value as is.
 *
 * Nothing is cached and nothing is watched: no start() or close(). Every call takes
 * `{ signal }`; without one it is bounded by the client's retry policy for each request.
 *
 * @example
 * const leader = new DistributedAtomicValue(client, '/app/owner', new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 20 }));
 * const result = await leader.compareAndSet(Buffer.from('old-owner'), Buffer.from('me'));
 * if (result.succeeded) console.log('taken over from', Buffer.from(result.preValue!).toString());
 */
export class DistributedAtomicValue {
  readonly #client: FrameworkClient;
  readonly #path: string;
  readonly #retryPolicy: RetryPolicy;
  readonly #promotion: CheckedPromotion | undefined;
  readonly #mutex: InterProcessMutex | undefined;

  /**
   * @param path the node holding the value
   * @param retryPolicy how often, and after what pause, an optimistic attempt that lost a race
   *   is repeated (each lost race is one "failure" to it)
   */
  constructor(
    client: FrameworkClient,
    path: string,
    retryPolicy: RetryPolicy,
    options: DistributedAtomicOptions = {},
  ) {
    checkClient(new.target.name, client);
    validatePath(path);
    this.#retryPolicy = checkRetryPolicy('retryPolicy', retryPolicy);
    checkRecipeOptions(new.target.name, options, ['promotedToLock']);
    this.#promotion = checkPromotion(options.promotedToLock);
    this.#client = client;
    this.#path = path;
    this.#mutex =
      this.#promotion === undefined
        ? undefined
        : new InterProcessMutex(client, this.#promotion.lockPath);
  }

  /** The node's path. */
  get path(): string {
    return this.#path;
  }

  /**
   * The current value (Curator's `get()`): `succeeded` is always true, `preValue` and
   * `postValue` are the node's data, undefined when there is no node.
   */
  async get(options: CallOptions = {}): Promise<AtomicValue<Uint8Array | undefined>> {
    const signal = checkCallOptions(options);
    const result = new MutableAtomicValue<Uint8Array | undefined>(undefined);
    result.preValue = (await this.#read(signal))?.data;
    result.postValue = result.preValue;
    result.succeeded = true;
    return result.freeze(copyOf);
  }

  /**
   * Sets the value without any atomicity (Curator's `forceSet`): overwrites the node, or
   * creates it (and missing parents).
   */
  async forceSet(newValue: Uint8Array, options: CallOptions = {}): Promise<void> {
    const bytes = checkBytes('newValue', newValue);
    const signal = checkCallOptions(options);
    try {
      await this.#client.setData(this.#path, bytes, { signal });
      return;
    } catch (error) {
      if (!isNoNode(error)) throw error;
    }
    try {
      await this.#client.create(this.#path, { data: bytes, createParents: true, signal });
    } catch (error) {
      if (!isNodeExists(error) && !isOutcomeUnknown(error, 'NODE_EXISTS')) throw error;
      await this.#client.setData(this.#path, bytes, { signal });
    }
  }

  /**
   * Writes `newValue` if the node holds exactly `expectedValue` (Curator's `compareAndSet`):
   * one read, one versioned write, no retry. A missing node is never created, whatever is
   * expected; on failure `postValue` is undefined.
   */
  async compareAndSet(
    expectedValue: Uint8Array,
    newValue: Uint8Array,
    options: CallOptions = {},
  ): Promise<AtomicValue<Uint8Array | undefined>> {
    return (await this.compareAndSetBytes(expectedValue, newValue, options)).freeze(copyOf);
  }

  /**
   * Sets `newValue` whatever the value was, atomically (Curator's `trySet`): optimistic
   * attempts as the retry policy allows, then under the mutex if promoted. Creates the node
   * (and missing parents) when there is none.
   */
  async trySet(
    newValue: Uint8Array,
    options: CallOptions = {},
  ): Promise<AtomicValue<Uint8Array | undefined>> {
    const bytes = checkBytes('newValue', newValue);
    const signal = checkCallOptions(options);
    return (await this.trySetWith(() => bytes, signal)).freeze(copyOf);
  }

  /**
   * Creates the node with `value` if there is none (Curator's `initialize`): true when it did,
   * false when the node already existed (its value untouched).
   */
  async initialize(value: Uint8Array, options: CallOptions = {}): Promise<boolean> {
    const bytes = checkBytes('value', value);
    const signal = checkCallOptions(options);
    try {
      await this.#client.create(this.#path, {
        data: bytes,
        createParents: true,
        signal,
        idempotent: true,
      });
      return true;
    } catch (error) {
      if (isNodeExists(error)) return false;
      throw error;
    }
  }

  /** @internal compareAndSet before freezing: DistributedAtomicLong maps the bytes itself. */
  async compareAndSetBytes(
    expectedValue: Uint8Array,
    newValue: Uint8Array,
    options: CallOptions,
  ): Promise<MutableAtomicValue<Uint8Array | undefined>> {
    const expected = checkBytes('expectedValue', expectedValue);
    const bytes = checkBytes('newValue', newValue);
    const signal = checkCallOptions(options);
    const result = new MutableAtomicValue<Uint8Array | undefined>(undefined);
    const current = await this.#read(signal);
    result.preValue = current?.data;
    if (current === undefined || !sameBytes(expected, current.data)) return result;
    try {
      await this.#client.setData(this.#path, bytes, {
        version: current.stat.version,
        signal,
        idempotent: true,
      });
      result.succeeded = true;
      result.postValue = bytes;
    } catch (error) {
      if (!isBadVersion(error) && !isNoNode(error)) throw error;
    }
    return result;
  }

  /**
   * @internal The optimistic loop, then the mutex if promoted (Curator's package-private
   * `trySet(MakeValue)`). `make` may throw (a corrupted node): the call then rejects with it.
   */
  async trySetWith(
    make: MakeValue,
    signal: AbortSignal | undefined,
  ): Promise<MutableAtomicValue<Uint8Array | undefined>> {
    const result = new MutableAtomicValue<Uint8Array | undefined>(undefined);
    await this.#tryOptimistic(result, make, signal);
    if (!result.succeeded && this.#mutex !== undefined) {
      await this.#tryWithMutex(this.#mutex, result, make, signal);
    }
    return result;
  }

  async #tryOptimistic(
    result: MutableAtomicValue<Uint8Array | undefined>,
    make: MakeValue,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const startMs = performance.now();
    try {
      result.succeeded = await this.#tryRepeatedly(this.#retryPolicy, signal, async () => {
        result.stats.optimisticTries += 1;
        return this.#tryOnce(result, make, signal);
      });
    } finally {
      result.stats.optimisticTimeMs = performance.now() - startMs;
    }
  }

  async #tryWithMutex(
    mutex: InterProcessMutex,
    result: MutableAtomicValue<Uint8Array | undefined>,
    make: MakeValue,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const startMs = performance.now();
    const promotion = this.#promotion!;
    try {
      // A flow of its own: two calls of this object at once exclude each other on the mutex.
      await runInFlow(async () => {
        if (!(await mutex.acquire(promotion.maxLockTimeMs, { signal }))) return;
        try {
          result.succeeded = await this.#tryRepeatedly(promotion.retryPolicy, signal, async () => {
            result.stats.promotedLockTries += 1;
            return this.#tryOnce(result, make, signal);
          });
        } finally {
          await mutex.release();
        }
      });
    } finally {
      result.stats.promotedTimeMs = performance.now() - startMs;
    }
  }

  /**
   * Runs `attempt` until it succeeds or `policy` stops (Curator's `allowRetry` loop), through
   * the framework's one retry loop: a lost race is the "error" the policy decides on.
   */
  async #tryRepeatedly(
    policy: RetryPolicy,
    signal: AbortSignal | undefined,
    attempt: () => Promise<boolean>,
  ): Promise<boolean> {
    try {
      await retryLoop(
        async () => {
          if (!(await attempt())) throw new Contended(`lost a race on ${this.#path}`);
        },
        { policy, signal, isRetryable: (error) => error instanceof Contended },
      );
      return true;
    } catch (error) {
      if (error instanceof Contended) return false;
      throw error;
    }
  }

  /** One read and one conditional write (create when there is no node). */
  async #tryOnce(
    result: MutableAtomicValue<Uint8Array | undefined>,
    make: MakeValue,
    signal: AbortSignal | undefined,
  ): Promise<boolean> {
    const current = await this.#read(signal);
    result.preValue = current?.data;
    const newValue = make(current?.data);
    try {
      // idempotent: a lost reply never counts a landed write as a lost race (which would apply
      // the change twice) nor a lost race as a landed write.
      if (current === undefined) {
        await this.#client.create(this.#path, {
          data: newValue,
          createParents: true,
          signal,
          idempotent: true,
        });
      } else {
        await this.#client.setData(this.#path, newValue, {
          version: current.stat.version,
          signal,
          idempotent: true,
        });
      }
    } catch (error) {
      if (isNodeExists(error) || isBadVersion(error) || isNoNode(error)) return false;
      throw error;
    }
    result.postValue = newValue;
    return true;
  }

  async #read(signal: AbortSignal | undefined): Promise<Current> {
    try {
      return await this.#client.getData(this.#path, { signal });
    } catch (error) {
      if (isNoNode(error)) return undefined;
      throw error;
    }
  }
}

function copyOf(bytes: Uint8Array | undefined): Uint8Array | undefined {
  return bytes === undefined ? undefined : Uint8Array.from(bytes);
}
