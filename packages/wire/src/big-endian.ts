// Big-endian integers read and written byte by byte. Buffer's readInt32BE/writeInt32BE and
// their 64-bit kin validate their arguments through four or five nested calls of Node's own
// (offset checks, range checks, error-wrapper frames): on a lock's hot path that was about 150
// function calls per acquire/release cycle, most of the wire codec's cost while its callers are
// not yet optimized. Callers here have already checked that the bytes are there.

const TWO_TO_32 = 2 ** 32;

/** The int32 at `offset`. */
export function readInt32(bytes: Uint8Array, offset: number): number {
  return (
    (bytes[offset]! << 24) |
    (bytes[offset + 1]! << 16) |
    (bytes[offset + 2]! << 8) |
    bytes[offset + 3]!
  );
}

/** The int64 at `offset`, exactly. */
export function readInt64(bytes: Uint8Array, offset: number): bigint {
  const high = readInt32(bytes, offset);
  const low = readInt32(bytes, offset + 4) >>> 0;
  // Most zxids, times and session ids of a reply fit in 53 bits: one BigInt from a number.
  if (high >= -0x200000 && high < 0x200000) return BigInt(high * TWO_TO_32 + low);
  return (BigInt(high) << 32n) | BigInt(low);
}

/** The int64 at `offset` as a number (times in milliseconds: exact below 2^53). */
export function readInt64AsNumber(bytes: Uint8Array, offset: number): number {
  return readInt32(bytes, offset) * TWO_TO_32 + (readInt32(bytes, offset + 4) >>> 0);
}

/** Writes `value` (an int32) at `offset`; returns the offset after it. */
export function writeInt32(bytes: Uint8Array, offset: number, value: number): number {
  bytes[offset] = value >>> 24;
  bytes[offset + 1] = value >>> 16;
  bytes[offset + 2] = value >>> 8;
  bytes[offset + 3] = value;
  return offset + 4;
}
