import type { FrameworkClient } from '@zkrecipes/framework';
import { DELAY_ORDER, delayPrefix, checkDelayUntil } from './delay-order.js';
import type { DistributedQueueOptions } from './distributed-queue-options.js';
import { PUT_NAMED, type PutOptions } from './distributed-queue.js';
import { WrappedQueue } from './wrapped-queue.js';

/** Options of {@link DistributedDelayQueue}: DistributedQueue's. */
export type DistributedDelayQueueOptions<T> = DistributedQueueOptions<T>;

/**
 * A queue whose items are not taken before their time (Curator's `DistributedDelayQueue`):
 * each put names the epoch time it becomes due (`queue-|<epoch ms, hex>|<sequence>`); items are
 * taken earliest due first, once due by the consumer's clock. A consumer with nothing due
 * waits exactly until the earliest item is (or a new item comes), no polling. Everything else
 * (safe mode, consumers, bounds, events) is DistributedQueue's.
 *
 * ```ts
 * const reminders = new DistributedDelayQueue(client, '/app/reminders', {
 *   serializer: stringSerializer(),
 *   consumer: (text) => console.log(text),
 * });
 * await reminders.start();
 * await reminders.put('in a minute', Date.now() + 60_000);
 * ```
 */
export class DistributedDelayQueue<T = Buffer> extends WrappedQueue<T> {
  constructor(
    client: FrameworkClient,
    queuePath: string,
    options: DistributedDelayQueueOptions<T> = {},
  ) {
    // As Curator's: a listing is walked to its end (or to an item not due yet) before a change
    // makes it be listed again; every due item in it is taken either way.
    super(client, queuePath, options, {
      recipe: 'DistributedDelayQueue',
      order: DELAY_ORDER,
      minItemsBeforeRefresh: Number.POSITIVE_INFINITY,
    });
  }

  /**
   * Adds one item, due at `delayUntil` (a Date, or epoch milliseconds: a finite number above 0;
   * a time already past is due at once). Otherwise as {@link DistributedQueue.put}.
   */
  async put(item: T, delayUntil: number | Date, options: PutOptions = {}): Promise<string> {
    const epochMs = checkDelayUntil(delayUntil);
    return this.queue[PUT_NAMED](delayPrefix(epochMs), [item], false, options);
  }

  /** Adds several items as one node due at `delayUntil`, as {@link DistributedQueue.putMulti}. */
  async putMulti(
    items: readonly T[],
    delayUntil: number | Date,
    options: PutOptions = {},
  ): Promise<string> {
    const epochMs = checkDelayUntil(delayUntil);
    return this.queue[PUT_NAMED](delayPrefix(epochMs), items, true, options);
  }
}
