// Requests whose record is a bare path and the replies they get: sync (op 9), getEphemerals
// (op 103, 3.6+) and getAllChildrenNumber (op 104, 3.6+), none of which
// node-zookeeper-client 1.1.3 has.
//
// Requests: SyncRequest {ustring path}, GetEphemeralsRequest {ustring prefixPath},
// GetAllChildrenNumberRequest {ustring path}.
// Replies: SyncResponse {ustring path}, GetEphemeralsResponse {vector<ustring> ephemerals},
// GetAllChildrenNumberResponse {int totalNumber}.
import { JuteReader } from './jute-reader.js';
import { JuteWriter } from './jute-writer.js';

/** `ustring path`: the body of all three requests. */
export function encodePath(path: string): Buffer {
  return new JuteWriter(path.length * 3 + 4).string(path).toBuffer();
}

/** A `vector<ustring>` reply (a count of -1 is jute's null vector: none). */
export function decodeStrings(body: Buffer): string[] {
  return new JuteReader(body).strings();
}

/** An `int` reply. */
export function decodeInt(body: Buffer): number {
  return new JuteReader(body).int();
}
