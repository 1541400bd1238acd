// A znode's Stat as jute writes it: czxid, mzxid, ctime, mtime (longs), version, cversion,
// aversion (ints), ephemeralOwner (long), dataLength, numChildren (ints), pzxid (long).

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
    czxid: bytes.readBigInt64BE(offset),
    mzxid: bytes.readBigInt64BE(offset + 8),
    pzxid: bytes.readBigInt64BE(offset + 60),
    ctime: Number(bytes.readBigInt64BE(offset + 16)),
    mtime: Number(bytes.readBigInt64BE(offset + 24)),
    version: bytes.readInt32BE(offset + 32),
    cversion: bytes.readInt32BE(offset + 36),
    aversion: bytes.readInt32BE(offset + 40),
    ephemeralOwner: bytes.readBigInt64BE(offset + 44),
    dataLength: bytes.readInt32BE(offset + 52),
    numChildren: bytes.readInt32BE(offset + 56),
  };
}
