// The byte formats Curator stores, so a Java service and a Node service read each other's
// values: SharedCount and DistributedAtomicInteger a 4-byte big-endian signed int (Java's
// ByteBuffer.putInt), DistributedAtomicLong an 8-byte big-endian signed long (ByteBuffer.putLong).
import { describeValue } from '@zkrecipes/framework/recipe-support';
import { InvalidArgumentError } from '@zkrecipes/framework';
import { CorruptedValueError } from './corrupted-value-error.js';

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Throws unless `value` is a whole number that fits a Java int. */
export function checkInt32(name: string, value: unknown): number {
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < INT32_MIN ||
    value > INT32_MAX
  ) {
    throw new InvalidArgumentError(
      `${name} must be a whole number from -2147483648 to 2147483647 (a Java int); got ${describeValue(value)}`,
    );
  }
  return value;
}

/**
 * `value` as a bigint when it is a bigint or a safe integer that fits a Java long; anything
 * else throws.
 */
export function checkInt64(name: string, value: unknown): bigint {
  let big: bigint | undefined;
  if (typeof value === 'bigint') big = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) big = BigInt(value);
  if (big === undefined || big < INT64_MIN || big > INT64_MAX) {
    throw new InvalidArgumentError(
      `${name} must be a bigint (or a safe integer number) from -2^63 to 2^63-1 (a Java long); got ${describeValue(value)}`,
    );
  }
  return big;
}

/** Java's `ByteBuffer.putInt`: 4 bytes, big-endian, two's complement. */
export function int32ToBytes(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setInt32(0, value);
  return bytes;
}

/**
 * Java's `ByteBuffer.getInt` on the node's data: the first 4 bytes (more are ignored, as
 * Curator ignores them); fewer is a {@link CorruptedValueError}.
 */
export function int32FromBytes(path: string, bytes: Uint8Array): number {
  if (bytes.length < 4) throw new CorruptedValueError(path, bytes, 'a 4-byte int');
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(0);
}

/** Java's `ByteBuffer.putLong`: 8 bytes, big-endian, two's complement. */
export function int64ToBytes(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigInt64(0, value);
  return bytes;
}

/**
 * Curator's `DistributedAtomicLong.bytesToValue`: no node or empty data reads 0, 8 or more
 * bytes read the first 8 (big-endian), 1 to 7 bytes are a {@link CorruptedValueError}.
 */
export function int64FromBytes(path: string, bytes: Uint8Array | undefined): bigint {
  if (bytes === undefined || bytes.length === 0) return 0n;
  if (bytes.length < 8) throw new CorruptedValueError(path, bytes, 'an 8-byte long');
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigInt64(0);
}

/** Java's long arithmetic: the sum wraps around at 64 bits, as `previous + delta` does in Java. */
export function addInt64(a: bigint, b: bigint): bigint {
  return BigInt.asIntN(64, a + b);
}

/**
 * Curator's `DistributedAtomicInteger.bytesToValue`: no node or empty data reads 0, 4 or more
 * bytes read the first 4 (big-endian), 1 to 3 bytes are a {@link CorruptedValueError}.
 */
export function atomicInt32FromBytes(path: string, bytes: Uint8Array | undefined): number {
  if (bytes === undefined || bytes.length === 0) return 0;
  return int32FromBytes(path, bytes);
}

/**
 * @internal How an atomic number is stored and added: `T` the value (bigint for a long, number
 * for an int).
 */
export interface AtomicNumberCodec<T> {
  readonly one: T;
  /** `value` as a `T`, or InvalidArgumentError naming `name`. */
  readonly check: (name: string, value: unknown) => T;
  readonly toBytes: (value: T) => Uint8Array;
  /** The node's data as a `T` (undefined: no node). */
  readonly fromBytes: (path: string, bytes: Uint8Array | undefined) => T;
  /** Java's `a + b`, wrapping around. */
  readonly add: (a: T, b: T) => T;
  /** Java's `-1 * value`, wrapping around (the minimum stays the minimum). */
  readonly negate: (value: T) => T;
}

/** Curator's DistributedAtomicLong bytes and arithmetic. */
export const INT64_CODEC: AtomicNumberCodec<bigint> = {
  one: 1n,
  check: checkInt64,
  toBytes: int64ToBytes,
  fromBytes: int64FromBytes,
  add: addInt64,
  negate: (value) => BigInt.asIntN(64, -value),
};

/** Curator's DistributedAtomicInteger bytes and arithmetic (Java int: wraps at 32 bits). */
export const INT32_CODEC: AtomicNumberCodec<number> = {
  one: 1,
  check: checkInt32,
  toBytes: int32ToBytes,
  fromBytes: atomicInt32FromBytes,
  add: (a, b) => (a + b) | 0,
  negate: (value) => -value | 0,
};
