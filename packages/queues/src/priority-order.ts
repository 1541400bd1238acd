// DistributedPriorityQueue's node names and order (Curator's priorityToString and its plain
// string sort of the children).
import { describeValue } from '@zkrecipes/framework/recipe-support';
import { InvalidArgumentError } from '@zkrecipes/framework';
import { splitItems, withoutSequence, type ItemOrder } from './item-order.js';
import { DISTRIBUTED_QUEUE_PREFIX } from './queue-node-names.js';

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** Asserts a priority is a Java `int`: a whole number from -2147483648 to 2147483647. */
export function checkPriority(priority: unknown): asserts priority is number {
  if (
    typeof priority !== 'number' ||
    !Number.isInteger(priority) ||
    priority < INT32_MIN ||
    priority > INT32_MAX
  ) {
    throw new InvalidArgumentError(
      `priority must be a whole number from ${INT32_MIN} to ${INT32_MAX} (a Java int); got ` +
        describeValue(priority),
    );
  }
}

/**
 * The name an item of `priority` is created as, before the server's sequence: `queue-`, then
 * `1` for priority >= 0 and `0` below, then the priority as 8 upper-case hex digits (two's
 * complement). Those names sort as strings in priority order: `queue-0800000000` is
 * -2147483648, `queue-1000000000` is 0, `queue-17FFFFFFF` is 2147483647.
 */
export function priorityPrefix(priority: number): string {
  const hex = (priority >>> 0).toString(16).toUpperCase().padStart(8, '0');
  return `${DISTRIBUTED_QUEUE_PREFIX}${priority >= 0 ? '1' : '0'}${hex}`;
}

/** The priority a name encodes, or undefined for a name without one. */
export function priorityOf(name: string): number | undefined {
  const match = /^queue-([01])([0-9A-F]{8})(?:\d{10}|-\d{9,10})$/.exec(name);
  if (match === null) return undefined;
  return Number.parseInt(match[2]!, 16) | 0;
}

/** Java's `String.compareTo` on these (ASCII) names. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Curator's order for a priority queue: the names sorted as strings, so lower priorities first
 * and, within one priority, older items first. A plain `queue-<seq>` (what Curator's safe mode
 * requeues a failed item as: it drops the priority) sorts before every priority.
 */
export const PRIORITY_ORDER: ItemOrder = {
  sort: (children) => {
    const { items, foreign } = splitItems(children);
    return { items: items.sort(compareStrings), foreign };
  },
  newItemsLast: false,
  requeuePrefix: withoutSequence,
};
