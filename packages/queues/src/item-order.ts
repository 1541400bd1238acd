// The order a queue's items are taken in, as one object the taker and the lock safety consult:
// DistributedQueue's FIFO, and the orders of the priority, delay and id queues (Curator's
// sortChildren / getDelay / makeRequeueItemPath overrides, one object per queue kind).
import { DISTRIBUTED_QUEUE_PREFIX, sortItems, type SortedItems } from './queue-node-names.js';

/** How a queue kind orders, delays and requeues its items. */
export interface ItemOrder {
  /** The queue's children split into its items, in taking order, and foreign nodes. */
  readonly sort: (children: readonly string[]) => SortedItems;
  /**
   * True when a new item always sorts after every listed one (sequence order): a listing can
   * then be walked to its end while items arrive. False (priority, delay): after a change, the
   * queue is listed again before the next take (see `minItemsBeforeRefresh`).
   */
  readonly newItemsLast: boolean;
  /**
   * Milliseconds until the item may be taken, at epoch time `nowMs` (delay queue); absent when
   * every item may be taken at once.
   */
  readonly dueInMs?: ((name: string, nowMs: number) => number) | undefined;
  /** The name (before the server's sequence) an item gets when safe mode requeues it. */
  readonly requeuePrefix: (name: string) => string;
}

/** DistributedQueue's order: by the sequence after `queue-`, wrap-aware. */
export const FIFO_ORDER: ItemOrder = {
  sort: (children) => sortItems(children, DISTRIBUTED_QUEUE_PREFIX),
  newItemsLast: true,
  requeuePrefix: () => DISTRIBUTED_QUEUE_PREFIX,
};

// ZooKeeper writes a sequence as %010d: ten digits, or a minus and nine (eleven chars for -2^31).
const SEQUENCE_SUFFIX = /(?:\d{10}|-\d{9}|-2147483648)$/;

/**
 * An item name without its sequence suffix: what a requeued copy is created as, so it keeps
 * its priority, delay or id.
 */
export function withoutSequence(name: string): string {
  return name.replace(SEQUENCE_SUFFIX, '');
}

/**
 * Splits children into items (every name starting with `queue-`, as Curator's consumer takes
 * them) and foreign nodes.
 */
export function splitItems(children: readonly string[]): SortedItems {
  const items: string[] = [];
  const foreign: string[] = [];
  for (const name of children) {
    (name.startsWith(DISTRIBUTED_QUEUE_PREFIX) ? items : foreign).push(name);
  }
  return { items, foreign };
}
