// The everyday reads and setData, for a client that decodes their replies itself (one pass
// over the bytes, the Stat read once).
//
// Requests: ExistsRequest, GetDataRequest, GetChildren2Request {ustring path, bool watch};
// SetDataRequest {ustring path, buffer data, int version}.
// Replies: ExistsResponse and SetDataResponse {Stat} (decodeStat); GetDataResponse {buffer data, Stat};
// GetChildren2Response {vector<ustring> children, Stat}.
import { Buffer } from 'node:buffer';
import { JuteReader } from './jute-reader.js';
import { JuteWriter } from './jute-writer.js';
import { decodeStat, type Stat } from './stat.js';

/** The body of exists, getData and getChildren2: the path and whether to leave a watch. */
export function encodePathWatch(path: string, watch: boolean): Buffer {
  return new JuteWriter(path.length * 3 + 5).string(path).bool(watch).toBuffer();
}

/** The body of setData; `version` -1 matches any version. */
export function encodeSetData(path: string, data: Uint8Array, version: number): Buffer {
  return new JuteWriter(path.length * 3 + data.length + 12)
    .string(path)
    .buffer(data)
    .int(version)
    .toBuffer();
}

/** A getData reply: the data (a copy; jute's null reads as empty) and the Stat. */
export function decodeGetData(body: Buffer): {
  /** The node's data. */
  data: Buffer;
  /** The node's Stat. */
  stat: Stat;
} {
  const reader = new JuteReader(body);
  const data = reader.buffer() ?? Buffer.alloc(0);
  return { data, stat: decodeStat(body, reader.offset) };
}

/** A getChildren2 reply: the child names and the parent's Stat. */
export function decodeGetChildren2(body: Buffer): {
  /** The children's names, in the server's order. */
  children: string[];
  /** The parent's Stat. */
  stat: Stat;
} {
  const reader = new JuteReader(body);
  const children = reader.strings();
  return { children, stat: decodeStat(body, reader.offset) };
}
