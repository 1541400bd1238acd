import { describeValue } from '@zkrecipes/framework/recipe-support';

/**
 * Decides the share of one member: given every member id of the group (sorted), every
 * partition (in the order given to the partitioner) and the member's own id, the partitions
 * that member should own. Every member runs it on the same stable view, so it must be a pure
 * function of its arguments, and the shares it gives the members should not overlap (an
 * overlap does not break exclusivity, locks do that, but the members asking for the same
 * partition wait for each other).
 */
export type PartitionFunction = (
  members: readonly string[],
  partitions: readonly string[],
  identifier: string,
) => readonly string[];

/**
 * The default {@link PartitionFunction} (kazoo's arbitrary partitioner): partitions sorted,
 * members sorted, and the member at position `i` of `n` takes the partitions at positions
 * `i`, `i + n`, `i + 2n`, ... So every member gets `floor(P / n)` or `ceil(P / n)`.
 */
export function roundRobinPartitions(
  members: readonly string[],
  partitions: readonly string[],
  identifier: string,
): string[] {
  const sortedMembers = [...members].sort();
  const position = sortedMembers.indexOf(identifier);
  if (position < 0) return [];
  const sorted = [...partitions].sort();
  const share: string[] = [];
  for (let index = position; index < sorted.length; index += sortedMembers.length) {
    share.push(sorted[index]!);
  }
  return share;
}

/**
 * The share a partition function returned, checked: an array of partitions of the set, each
 * once. Throws a TypeError naming what was wrong otherwise.
 */
export function checkedShare(share: unknown, partitions: ReadonlySet<string>): string[] {
  if (!Array.isArray(share)) {
    throw new TypeError(`partitionFunction must return an array; got ${describeValue(share)}`);
  }
  const seen = new Set<string>();
  for (const partition of share as unknown[]) {
    if (typeof partition !== 'string' || !partitions.has(partition)) {
      throw new TypeError(
        `partitionFunction returned ${describeValue(partition)}, which is not one of the partitions`,
      );
    }
    if (seen.has(partition)) {
      throw new TypeError(`partitionFunction returned ${describeValue(partition)} twice`);
    }
    seen.add(partition);
  }
  return [...seen];
}
