/**
 * Requests nzc 1.1.3 does not know, written in ZooKeeper's wire format and handed to nzc's
 * packet queue as they are: `addWatch` (3.6+, persistent watches) and `removeWatches`. Only
 * the adapter uses this; no nzc code is loaded here.
 *
 * nzc picks how to decode a reply from the request header's `type` and drops the connection on
 * a type it does not know. Both requests here are answered by a bare reply header, as nzc's
 * DELETE is, so the header nzc sees says DELETE while the bytes on the wire carry the real op
 * code. nzc still assigns the xid and matches the reply by it.
 */

/** ZooKeeper op codes (ZooDefs.OpCode). */
const OP_REMOVE_WATCHES = 18;
const OP_ADD_WATCH = 106;
/** nzc's DELETE: "no body in the reply" for its reply decoder. */
const NZC_TYPE_WITHOUT_REPLY_BODY = 2;

/** AddWatchMode on the wire. */
export const ADD_WATCH_MODE = { PERSISTENT: 0, PERSISTENT_RECURSIVE: 1 } as const;
/** WatcherType of removeWatches: Children 1, Data 2, Any 3. */
export const REMOVE_WATCHES_ANY = 3;

/** What nzc's packet queue needs from a request. */
export interface NzcRawRequest {
  readonly header: { xid: number; readonly type: number };
  readonly payload: null;
  toBuffer(): Buffer;
}

/** `path` as the server sees it under the connect string's chroot (nzc's prependChroot). */
export function withChroot(chroot: string | undefined, path: string): string {
  if (!chroot) return path;
  return path === '/' ? chroot : chroot + path;
}

/** A request whose body is `ustring path; int value` (AddWatchRequest, RemoveWatchesRequest). */
function pathAndIntRequest(opCode: number, path: string, value: number): NzcRawRequest {
  const header = { xid: 0, type: NZC_TYPE_WITHOUT_REPLY_BODY };
  return {
    header,
    payload: null,
    toBuffer(): Buffer {
      const pathBytes = Buffer.from(path, 'utf8');
      // length, xid, op code, path length, path, int
      const buffer = Buffer.alloc(4 + 4 + 4 + 4 + pathBytes.length + 4);
      let offset = buffer.writeInt32BE(buffer.length - 4, 0);
      offset = buffer.writeInt32BE(header.xid, offset);
      offset = buffer.writeInt32BE(opCode, offset);
      offset = buffer.writeInt32BE(pathBytes.length, offset);
      offset += pathBytes.copy(buffer, offset);
      buffer.writeInt32BE(value, offset);
      return buffer;
    },
  };
}

export function addWatchRequest(path: string, mode: number): NzcRawRequest {
  return pathAndIntRequest(OP_ADD_WATCH, path, mode);
}

export function removeWatchesRequest(path: string, watcherType: number): NzcRawRequest {
  return pathAndIntRequest(OP_REMOVE_WATCHES, path, watcherType);
}
