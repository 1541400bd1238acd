// Node names of the queues (Curator's) and the order items are taken in.
import { compareSequenceWrapping, sequenceSuffix } from '@zkrecipes/framework';

/** DistributedQueue items: `queue-0000000042` (Curator's QUEUE_ITEM_NAME). */
export const DISTRIBUTED_QUEUE_PREFIX = 'queue-';
/** SimpleDistributedQueue items: `qn-0000000042` (Curator's and ZooKeeper's own recipe). */
export const SIMPLE_QUEUE_PREFIX = 'qn-';

/** A queue's children split into its items, in taking order, and everything else. */
export interface SortedItems {
  /** Item names, oldest first. */
  readonly items: string[];
  /** Children that are not items of this queue (they are left alone). */
  readonly foreign: string[];
}

/**
 * Sorts a queue's children the way items are taken: by the sequence number after `prefix`,
 * read as ZooKeeper's signed 32-bit counter and compared wrap-aware, so the queue stays FIFO
 * after the parent's counter passes 2^31 - 1. (Curator sorts the names as strings, which agrees
 * until that wrap.) Names that do not carry `prefix` and a sequence are foreign.
 */
export function sortItems(children: readonly string[], prefix: string): SortedItems {
  const keyed: { name: string; seq: number }[] = [];
  const foreign: string[] = [];
  for (const name of children) {
    const seq = sequenceSuffix(name, { prefix });
    if (seq === undefined) foreign.push(name);
    else keyed.push({ name, seq });
  }
  keyed.sort((a, b) => compareSequenceWrapping(a.seq, b.seq));
  return { items: keyed.map((entry) => entry.name), foreign };
}
