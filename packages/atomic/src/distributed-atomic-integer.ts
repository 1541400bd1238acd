import { type FrameworkClient, type RetryPolicy } from '@zkrecipes/framework';
import type { DistributedAtomicOptions } from './distributed-atomic-value.js';
import { DistributedAtomicNumber } from './distributed-atomic-number.js';
import { INT32_CODEC } from './number-codecs.js';

/**
 * A counter changed only atomically (Curator's `DistributedAtomicInteger`), stored as Curator
 * stores it: a Java int, 4 bytes big-endian (the bytes of a `SharedCount`). Values and
 * arguments are numbers from -2^31 to 2^31 - 1; arithmetic wraps around at 32 bits, as Java's
 * does.
 *
 * The same operations and rules as `DistributedAtomicLong`: optimistic compare-and-set driven
 * by `retryPolicy`, optionally promoted to a mutex. Always check `succeeded`. A missing node
 * reads as 0 (and an empty one too; 1 to 3 bytes are a CorruptedValueError). A failed
 * operation's `postValue` is 0.
 *
 * @example
 * const slots = new DistributedAtomicInteger(client, '/app/counters/slots',
 *   new RetryNTimes({ n: 20, sleepBetweenRetriesMs: 5 }));
 * const result = await slots.add(3);
 * if (result.succeeded) console.log('slots', result.preValue, '->', result.postValue);
 */
export class DistributedAtomicInteger extends DistributedAtomicNumber<number> {
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
    super('DistributedAtomicInteger', INT32_CODEC, client, path, retryPolicy, options);
  }
}
