import { describeValue } from '@zkrecipes/framework/recipe-support';
import { InvalidArgumentError } from '@zkrecipes/framework';

/**
 * A value together with the node Stat it was read or written with (Curator's
 * `VersionedValue`). Pass the one from `getVersionedValue()` back to `trySetValue` /
 * `trySetCount` for a compare-and-set.
 */
export interface VersionedValue<T> {
  /**
   * The node's mzxid when the value was read or written: what tells a newer value from an
   * older one (it only grows, also across a delete and re-create). -1n before the first read.
   */
  readonly zxid: bigint;
  /**
   * The node's data version, what a compare-and-set sends. It is not monotonic: it wraps to
   * negative numbers after 2^31 - 1 sets and restarts at 0 when the node is re-created.
   * -1 before the first read.
   */
  readonly version: number;
  /** The value. */
  readonly value: T;
}

/** Throws unless `previous` looks like a {@link VersionedValue} whose value passes `checkValue`. */
export function checkVersionedValue<T>(
  previous: unknown,
  checkValue: (value: unknown) => T,
): VersionedValue<T> {
  const candidate = previous as Partial<Record<keyof VersionedValue<T>, unknown>> | null;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    typeof candidate.zxid !== 'bigint' ||
    typeof candidate.version !== 'number' ||
    !Number.isInteger(candidate.version)
  ) {
    throw new InvalidArgumentError(
      `previous must be a VersionedValue from getVersionedValue() ({ zxid: bigint, version, value }); got ${describeValue(previous)}`,
    );
  }
  return { zxid: candidate.zxid, version: candidate.version, value: checkValue(candidate.value) };
}
