// A znode's Stat as jute writes it: czxid, mzxid, ctime, mtime (longs), version, cversion,
// aversion (ints), ephemeralOwner (long), dataLength, numChildren (ints), pzxid (long).
import { readInt32, readInt64, readInt64AsNumber } from './big-endian.js';

/** The bytes of one Stat on the wire. */
export const STAT_BYTES = 68;

/** A znode's metadata. Zxids and the session id are 64-bit, so they are bigints. */
export interface Stat {
  /** The zxid of the transaction that created the znode. */
  readonly czxid: bigint;
  /** The zxid of the transaction that last set the znode's data. */
  readonly mzxid: bigint;
  /** The zxid of the transaction that last added or removed a child. */
  readonly pzxid: bigint;
  /** Milliseconds since the epoch. */
  readonly ctime: number;
  /** When the data was last set, in milliseconds since the epoch. */
  readonly mtime: number;
  /** The data version: incremented by every set; pass it to conditional `setData`/`delete`. */
  readonly version: number;
  /** The children version: incremented whenever a child is added or removed. */
  readonly cversion: number;
  /** The ACL version: incremented by every `setAcl`. */
  readonly aversion: number;
  /** The owning session id for an ephemeral node, `0n` otherwise. */
  readonly ephemeralOwner: bigint;
  /** The length of the data, in bytes. */
  readonly dataLength: number;
  /** The number of children. */
  readonly numChildren: number;
}

/** Decodes the Stat at `offset` of `bytes` (68 bytes); throws when fewer are there. */
export function decodeStat(bytes: Buffer, offset = 0): Stat {
  if (bytes.length - offset < STAT_BYTES) {
    throw new Error(
      `Stat: need ${STAT_BYTES} bytes at offset ${offset}, have ${bytes.length - offset}`,
    );
  }
  // Keys in the order the framework always built them (pzxid third), fields at jute's offsets.
  return {
    czxid: readInt64(bytes, offset),
    mzxid: readInt64(bytes, offset + 8),
    pzxid: readInt64(bytes, offset + 60),
    ctime: readInt64AsNumber(bytes, offset + 16),
    mtime: readInt64AsNumber(bytes, offset + 24),
    version: readInt32(bytes, offset + 32),
    cversion: readInt32(bytes, offset + 36),
    aversion: readInt32(bytes, offset + 40),
    ephemeralOwner: readInt64(bytes, offset + 44),
    dataLength: readInt32(bytes, offset + 52),
    numChildren: readInt32(bytes, offset + 56),
  };
}
