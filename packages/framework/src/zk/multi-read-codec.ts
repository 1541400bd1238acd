/**
 * ZooKeeper's multiRead (op 22, 3.6+): several getData requests in one packet and one reply,
 * each answered on its own (a missing node fails only its own read). nzc 1.1.3 has no such
 * request; the adapter sends these bytes through nzc's packet queue and takes the reply body
 * from the socket before nzc sees it (see nzc-reply-tap.ts).
 *
 * Request: for each path a MultiHeader {int type=4 (getData), bool done=false, int err=-1}
 * and a GetDataRequest {ustring path, bool watch=false}; then MultiHeader {-1, true, -1}.
 * Reply: for each op a MultiHeader and a GetDataResponse {buffer data, Stat}, or an
 * ErrorResponse {int err} under type -1; then the done header.
 */

export const OP_MULTI_READ = 22;
const OP_GET_DATA = 4;
const OP_ERROR = -1;
/** MultiHeader: int type, boolean done, int err. */
const MULTI_HEADER_BYTES = 9;
/** Stat: six longs and five ints. */
const STAT_BYTES = 6 * 8 + 5 * 4;

/** One read's answer: the node's data and raw 68-byte Stat, or ZooKeeper's error code. */
export type MultiReadResult =
  | { readonly ok: true; readonly data: Buffer; readonly stat: Buffer }
  | { readonly ok: false; readonly code: number };

/** The request body (after the request header) for `paths`, chroot already applied. */
export function encodeMultiRead(paths: readonly string[]): Buffer {
  const encoded = paths.map((path) => Buffer.from(path, 'utf8'));
  const size =
    encoded.reduce((sum, path) => sum + MULTI_HEADER_BYTES + 4 + path.length + 1, 0) +
    MULTI_HEADER_BYTES;
  const buffer = Buffer.alloc(size);
  let offset = 0;
  const header = (type: number, done: boolean, err: number): void => {
    offset = buffer.writeInt32BE(type, offset);
    offset = buffer.writeUInt8(done ? 1 : 0, offset);
    offset = buffer.writeInt32BE(err, offset);
  };
  for (const path of encoded) {
    header(OP_GET_DATA, false, -1);
    offset = buffer.writeInt32BE(path.length, offset);
    offset += path.copy(buffer, offset);
    offset = buffer.writeUInt8(0, offset); // no watch: a multiRead cannot set one
  }
  header(-1, true, -1);
  return buffer;
}

/** Decodes a multiRead reply body; throws on bytes that do not follow the format. */
export function decodeMultiRead(body: Buffer, expected: number): MultiReadResult[] {
  const results: MultiReadResult[] = [];
  let offset = 0;
  const need = (bytes: number): void => {
    if (offset + bytes > body.length) throw new Error('multiRead reply cut short');
  };
  for (;;) {
    need(MULTI_HEADER_BYTES);
    const type = body.readInt32BE(offset);
    const done = body.readUInt8(offset + 4) !== 0;
    const err = body.readInt32BE(offset + 5);
    offset += MULTI_HEADER_BYTES;
    if (done) break;
    if (type === OP_GET_DATA) {
      need(4);
      const length = body.readInt32BE(offset);
      offset += 4;
      const dataLength = Math.max(length, 0);
      need(dataLength + STAT_BYTES);
      const data = Buffer.from(body.subarray(offset, offset + dataLength));
      offset += dataLength;
      const stat = Buffer.from(body.subarray(offset, offset + STAT_BYTES));
      offset += STAT_BYTES;
      results.push({ ok: true, data, stat });
    } else if (type === OP_ERROR) {
      need(4);
      results.push({ ok: false, code: body.readInt32BE(offset) });
      offset += 4;
    } else {
      throw new Error(`multiRead reply: unexpected op type ${type} (err ${err})`);
    }
  }
  if (results.length !== expected) {
    throw new Error(`multiRead reply: ${results.length} results for ${expected} reads`);
  }
  return results;
}
