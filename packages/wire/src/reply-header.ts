// Every reply after the handshake starts with ReplyHeader {int xid, long zxid, int err};
// the reply record follows only when err is 0.
import type { JuteReader } from './jute-reader.js';

/** The header of one reply (or watch event, xid -1). */
export interface ReplyHeader {
  /** The request's xid, or a reserved one (see {@link Xid}). */
  readonly xid: number;
  /** The last zxid the server had seen when it answered. */
  readonly zxid: bigint;
  /** 0, or one of {@link ZooKeeperErrorCode}. */
  readonly err: number;
}

/** Reads the header; `reader` is left at the reply record. */
export function readReplyHeader(reader: JuteReader): ReplyHeader {
  const xid = reader.int();
  const zxid = reader.long();
  const err = reader.int();
  return { xid, zxid, err };
}
