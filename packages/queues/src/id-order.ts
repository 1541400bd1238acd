// DistributedIdQueue's node names and order (Curator's makeIdPath, fixId, parseId and its sort
// of the names without their ids).
import { describeValue } from '@zkrecipes/framework/recipe-support';
import {
  compareSequenceWrapping,
  InvalidArgumentError,
  sequenceSuffix,
} from '@zkrecipes/framework';
import { splitItems, withoutSequence, type ItemOrder } from './item-order.js';
import { DISTRIBUTED_QUEUE_PREFIX } from './queue-node-names.js';

const SEPARATOR = '|';

/** Asserts an item id is a non-empty string. */
export function checkItemId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || id.length === 0) {
    throw new InvalidArgumentError(`id must be a non-empty string; got ${describeValue(id)}`);
  }
}

/** An id as Curator writes it into a name: `/` and `|` become `_`. */
export function fixId(id: string): string {
  return id.replaceAll('/', '_').replaceAll(SEPARATOR, '_');
}

/** The name an item with `id` is created as: `queue-|<id, fixed>|`. */
export function idPrefix(id: string): string {
  return `${DISTRIBUTED_QUEUE_PREFIX}${SEPARATOR}${fixId(id)}${SEPARATOR}`;
}

/**
 * The id in a name (between its first two `|`, as Curator's parseId), or undefined for a name
 * without one.
 */
export function idOf(name: string): string | undefined {
  const first = name.indexOf(SEPARATOR);
  const second = first < 0 ? -1 : name.indexOf(SEPARATOR, first + 1);
  return second < 0 ? undefined : name.slice(first + 1, second);
}

/**
 * Curator's order for an id queue: the names without their ids, i.e. by sequence: FIFO, whatever
 * the ids. (Compared wrap-aware, as DistributedQueue's; Curator compares the strings, which
 * agrees until the parent's counter passes 2^31 - 1.)
 */
export const ID_ORDER: ItemOrder = {
  sort: (children) => {
    const { items, foreign } = splitItems(children);
    const keyed = items.map((name) => ({ name, seq: sequenceSuffix(name) ?? 0 }));
    keyed.sort((a, b) => compareSequenceWrapping(a.seq, b.seq));
    return { items: keyed.map((entry) => entry.name), foreign };
  },
  newItemsLast: true,
  requeuePrefix: withoutSequence,
};
