import type { FrameworkClient } from '@zkrecipes/framework';
import { checkWholeNumber } from './check-queue-input.js';
import type { DistributedQueueOptions } from './distributed-queue-options.js';
import { PUT_NAMED, type PutOptions } from './distributed-queue.js';
import { PRIORITY_ORDER, priorityPrefix, checkPriority } from './priority-order.js';
import { WrappedQueue } from './wrapped-queue.js';

/** Options of {@link DistributedPriorityQueue}: DistributedQueue's, and one of its own. */
export interface DistributedPriorityQueueOptions<T> extends DistributedQueueOptions<T> {
  /**
   * Items taken from one listing before a change to the queue (a put, a take by anyone) makes
   * it be listed again (Curator's `buildPriorityQueue(minItemsBeforeRefresh)`). 0 keeps the
   * strictest order, at the cost of a listing per item while the queue changes; 10 lets up to
   * 10 items go in the old order before a more urgent new one is seen. Default: 0.
   */
  readonly minItemsBeforeRefresh?: number | undefined;
}

/**
 * A priority queue on ZooKeeper (Curator's `DistributedPriorityQueue`): lower priorities are
 * taken first, equal ones in put order. The priority is in the node's name
 * (`queue-<sign><8 hex digits><sequence>`), so Java and Node producers and consumers share
 * queues. Everything else (safe mode, consumers, bounds, events) is DistributedQueue's.
 *
 * ```ts
 * const queue = new DistributedPriorityQueue(client, '/app/jobs', {
 *   serializer: jsonSerializer<Job>(),
 *   consumer: async (job) => run(job),
 * });
 * await queue.start();
 * await queue.put({ id: 1 }, 10);
 * await queue.put({ id: 2 }, -5); // taken first
 * ```
 */
export class DistributedPriorityQueue<T = Buffer> extends WrappedQueue<T> {
  constructor(
    client: FrameworkClient,
    queuePath: string,
    options: DistributedPriorityQueueOptions<T> = {},
  ) {
    const minItemsBeforeRefresh =
      typeof options === 'object' && options !== null ? (options.minItemsBeforeRefresh ?? 0) : 0;
    checkWholeNumber('minItemsBeforeRefresh', minItemsBeforeRefresh, 0, Number.MAX_SAFE_INTEGER);
    super(client, queuePath, options, {
      recipe: 'DistributedPriorityQueue',
      order: PRIORITY_ORDER,
      minItemsBeforeRefresh,
    });
  }

  /**
   * Adds one item with `priority` (a Java int: a whole number from -2147483648 to 2147483647;
   * lower is taken first). Otherwise as {@link DistributedQueue.put}.
   */
  async put(item: T, priority: number, options: PutOptions = {}): Promise<string> {
    checkPriority(priority);
    return this.queue[PUT_NAMED](priorityPrefix(priority), [item], false, options);
  }

  /** Adds several items as one node of `priority`, as {@link DistributedQueue.putMulti}. */
  async putMulti(items: readonly T[], priority: number, options: PutOptions = {}): Promise<string> {
    checkPriority(priority);
    return this.queue[PUT_NAMED](priorityPrefix(priority), items, true, options);
  }
}
