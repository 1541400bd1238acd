import { type FrameworkClient, type RetryPolicy } from '@zkrecipes/framework';
import type { DistributedAtomicOptions } from './distributed-atomic-value.js';
import { DistributedAtomicNumber } from './distributed-atomic-number.js';
import { INT64_CODEC } from './number-codecs.js';

/**
 * A counter changed only atomically (Curator's `DistributedAtomicLong`), stored as Curator
 * stores it: a Java long, 8 bytes big-endian. Values are bigints; arguments may also be
 * numbers that are safe integers. Arithmetic wraps around at 64 bits, as Java's does.
 *
 * Each change reads the node and writes it back with the version read, retried as
 * `retryPolicy` allows when another writer came first, then optionally under a mutex
 * (`promotedToLock`). Always check `succeeded`: only `get()` is sure to succeed. A missing
 * node reads as 0 (and an empty one too; 1 to 7 bytes are a CorruptedValueError);
 * `increment()` and friends create it. A failed operation's `postValue` is 0n.
 *
 * @example
 * const orders = new DistributedAtomicLong(client, '/app/counters/orders',
 *   new RetryNTimes({ n: 20, sleepBetweenRetriesMs: 5 }));
 * const result = await orders.increment();
 * if (result.succeeded) console.log('order number', result.postValue); // e.g. 42n
 */
export class DistributedAtomicLong extends DistributedAtomicNumber<bigint, bigint | number> {
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
    super('DistributedAtomicLong', INT64_CODEC, client, path, retryPolicy, options);
  }
}
