import type { Stat } from './zookeeper-types.js';

/** A Stat as the 68 bytes jute writes (czxid, mzxid, ctime, mtime, versions, owner, ...). */
export function statFromBytes(bytes: Buffer): Stat {
  return {
    czxid: bytes.readBigInt64BE(0),
    mzxid: bytes.readBigInt64BE(8),
    pzxid: bytes.readBigInt64BE(60),
    ctime: Number(bytes.readBigInt64BE(16)),
    mtime: Number(bytes.readBigInt64BE(24)),
    version: bytes.readInt32BE(32),
    cversion: bytes.readInt32BE(36),
    aversion: bytes.readInt32BE(40),
    ephemeralOwner: bytes.readBigInt64BE(44),
    dataLength: bytes.readInt32BE(52),
    numChildren: bytes.readInt32BE(56),
  };
}
