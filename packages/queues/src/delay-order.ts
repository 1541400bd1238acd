// DistributedDelayQueue's node names and order (Curator's epochToString, getEpoch and its sort by
// delay).
import { describeValue } from '@zkrecipes/framework/recipe-support';
import {
  compareSequenceWrapping,
  InvalidArgumentError,
  sequenceSuffix,
} from '@zkrecipes/framework';
import { splitItems, withoutSequence, type ItemOrder } from './item-order.js';
import { DISTRIBUTED_QUEUE_PREFIX } from './queue-node-names.js';

const SEPARATOR = '|';

/**
 * Checks when an item becomes due: a Date, or epoch milliseconds as a finite number above 0
 * (Curator's `delayUntilEpoch > 0`); returns whole epoch milliseconds.
 */
export function checkDelayUntil(delayUntil: unknown): number {
  const epochMs = delayUntil instanceof Date ? delayUntil.getTime() : delayUntil;
  if (
    typeof epochMs !== 'number' ||
    !Number.isFinite(epochMs) ||
    epochMs < 1 ||
    epochMs > Number.MAX_SAFE_INTEGER
  ) {
    throw new InvalidArgumentError(
      `delayUntil must be a Date or epoch milliseconds (a finite number from 1 to ` +
        `${Number.MAX_SAFE_INTEGER}); got ${delayUntil instanceof Date ? 'an invalid Date' : describeValue(delayUntil)}`,
    );
  }
  return Math.floor(epochMs);
}

/** The name an item due at `epochMs` is created as: `queue-|<epoch ms, upper-case hex>|`. */
export function delayPrefix(epochMs: number): string {
  const hex = epochMs.toString(16).toUpperCase().padStart(8, '0');
  return `${DISTRIBUTED_QUEUE_PREFIX}${SEPARATOR}${hex}${SEPARATOR}`;
}

/**
 * The epoch a name carries between its last two `|` (Curator's getEpoch); 0 (due at once) for a
 * name without one, such as `queue-<seq>`, what Curator's safe mode requeues a failed item as.
 */
export function epochOf(name: string): number {
  const last = name.lastIndexOf(SEPARATOR);
  const first = last > 0 ? name.lastIndexOf(SEPARATOR, last - 1) : -1;
  if (first <= 0 || last <= first + 1) return 0;
  const hex = name.slice(first + 1, last);
  if (!/^[0-9a-fA-F]{1,13}$/.test(hex)) return 0;
  return Number.parseInt(hex, 16);
}

function sequenceOf(name: string): number {
  return sequenceSuffix(name) ?? 0;
}

/**
 * Curator's order for a delay queue: by due time, earliest first; items due at the same
 * millisecond by sequence (Curator leaves those in listing order). An item is taken once its
 * time has come on this machine's clock.
 */
export const DELAY_ORDER: ItemOrder = {
  sort: (children) => {
    const { items, foreign } = splitItems(children);
    const keyed = items.map((name) => ({ name, epoch: epochOf(name), seq: sequenceOf(name) }));
    keyed.sort((a, b) => a.epoch - b.epoch || compareSequenceWrapping(a.seq, b.seq));
    return { items: keyed.map((entry) => entry.name), foreign };
  },
  newItemsLast: false,
  dueInMs: (name, nowMs) => epochOf(name) - nowMs,
  requeuePrefix: withoutSequence,
};
