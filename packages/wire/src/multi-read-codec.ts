// ZooKeeper's multiRead (op 22, 3.6+): several getData requests in one packet and one reply,
// each answered on its own (a missing node fails only its own read).
//
// Request: for each path a MultiHeader {int type=4 (getData), bool done=false, int err=-1}
// and a GetDataRequest {ustring path, bool watch=false}; then MultiHeader {-1, true, -1}.
// Reply: for each op a MultiHeader and a GetDataResponse {buffer data, Stat}, or an
// ErrorResponse {int err} under type -1; then the done header.
import { Buffer } from 'node:buffer';
import { JuteReader } from './jute-reader.js';
import { JuteWriter } from './jute-writer.js';
import { OpCode } from './op-code.js';
import { STAT_BYTES } from './stat.js';

/** One read's answer: the node's data and raw 68-byte Stat, or ZooKeeper's error code. */
export type MultiReadResult =
  | {
      /** The read succeeded. */
      readonly ok: true;
      /** The node's data. */
      readonly data: Buffer;
      /** The node's Stat, raw (see `decodeStat`). */
      readonly stat: Buffer;
    }
  | {
      /** The read failed. */
      readonly ok: false;
      /** ZooKeeper's error code (-101 for a node that does not exist). */
      readonly code: number;
    };

/** The request body (after the request header) for `paths`, chroot already applied. */
export function encodeMultiRead(paths: readonly string[]): Buffer {
  const writer = new JuteWriter(paths.reduce((sum, path) => sum + 16 + path.length * 3, 9));
  for (const path of paths) {
    // No watch: a multiRead cannot set one.
    writer.int(OpCode.getData).bool(false).int(-1).string(path).bool(false);
  }
  return writer.int(-1).bool(true).int(-1).toBuffer();
}

/** Decodes a multiRead reply body; throws on bytes that do not follow the format. */
export function decodeMultiRead(body: Buffer, expected: number): MultiReadResult[] {
  const reader = new JuteReader(body);
  const results: MultiReadResult[] = [];
  for (;;) {
    const type = reader.int();
    const done = reader.bool();
    const err = reader.int();
    if (done) break;
    if (type === OpCode.getData) {
      const data = reader.buffer() ?? Buffer.alloc(0);
      results.push({ ok: true, data, stat: reader.bytes(STAT_BYTES) });
    } else if (type === OpCode.error) {
      results.push({ ok: false, code: reader.int() });
    } else {
      throw new Error(`multiRead reply: unexpected op type ${type} (err ${err})`);
    }
  }
  if (results.length !== expected) {
    throw new Error(`multiRead reply: ${results.length} results for ${expected} reads`);
  }
  return results;
}
