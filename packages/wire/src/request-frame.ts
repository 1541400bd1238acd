// Every request after the handshake: int32 length, RequestHeader {int xid, int type}, body.

/** The frame of one request: length prefix, header, then `body` (a request record). */
export function encodeRequest(xid: number, opCode: number, body: Uint8Array): Buffer {
  const frame = Buffer.allocUnsafe(4 + 4 + 4 + body.length);
  let offset = frame.writeInt32BE(frame.length - 4, 0);
  offset = frame.writeInt32BE(xid, offset);
  offset = frame.writeInt32BE(opCode, offset);
  frame.set(body, offset);
  return frame;
}
