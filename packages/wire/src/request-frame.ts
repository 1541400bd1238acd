// Every request after the handshake: int32 length, RequestHeader {int xid, int type}, body.
import { Buffer } from 'node:buffer';
import { writeInt32 } from './big-endian.js';

/** The frame of one request: length prefix, header, then `body` (a request record). */
export function encodeRequest(xid: number, opCode: number, body: Uint8Array): Buffer {
  const frame = Buffer.allocUnsafe(4 + 4 + 4 + body.length);
  let offset = writeInt32(frame, 0, frame.length - 4);
  offset = writeInt32(frame, offset, xid);
  offset = writeInt32(frame, offset, opCode);
  frame.set(body, offset);
  return frame;
}
