/**
 * Three requests nzc 1.1.3 lacks whose request is a bare path: sync (op 9), getEphemerals
 * (op 103, 3.6+) and getAllChildrenNumber (op 104, 3.6+). The adapter sends them through nzc's
 * packet queue and takes the reply body off the socket before nzc sees it (nzc-reply-tap.ts).
 *
 * Requests: SyncRequest {ustring path}, GetEphemeralsRequest {ustring prefixPath},
 * GetAllChildrenNumberRequest {ustring path}.
 * Replies: SyncResponse {ustring path}, GetEphemeralsResponse {vector<ustring> ephemerals},
 * GetAllChildrenNumberResponse {int totalNumber}.
 */

export const OP_SYNC = 9;
export const OP_GET_EPHEMERALS = 103;
export const OP_GET_ALL_CHILDREN_NUMBER = 104;

/** `ustring path`: the body of all three requests. */
export function encodePath(path: string): Buffer {
  const pathBytes = Buffer.from(path, 'utf8');
  const body = Buffer.alloc(4 + pathBytes.length);
  pathBytes.copy(body, body.writeInt32BE(pathBytes.length, 0));
  return body;
}

/** A `vector<ustring>` reply (a length of -1 is jute's null vector: none). */
export function decodeStrings(body: Buffer): string[] {
  const count = body.readInt32BE(0);
  const strings: string[] = [];
  let offset = 4;
  for (let i = 0; i < count; i++) {
    const length = body.readInt32BE(offset);
    offset += 4;
    if (offset + Math.max(length, 0) > body.length) throw new Error('string list reply cut short');
    strings.push(body.toString('utf8', offset, offset + Math.max(length, 0)));
    offset += Math.max(length, 0);
  }
  return strings;
}

/** An `int` reply. */
export function decodeInt(body: Buffer): number {
  return body.readInt32BE(0);
}
