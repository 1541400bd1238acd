/**
 * Requests nzc 1.1.3 does not know, written in ZooKeeper's wire format and handed to nzc's
 * packet queue as they are: `addWatch` (3.6+, persistent watches), `removeWatches` and
 * `multiRead` (see multi-read-codec.ts). Only the adapter uses this; no nzc code is loaded here.
 *
 * nzc picks how to decode a reply from the request header's `type` and drops the connection on
 * a type it does not know. The header nzc sees says DELETE (a bare reply header, no payload)
 * while the bytes on the wire carry the real op code; nzc still assigns the xid and matches the
 * reply by it. addWatch and removeWatches are answered that way; a multiRead's body is taken
 * off the stream before nzc sees it (nzc-reply-tap.ts).
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

/** A path the server returned, as the client names it (nzc's removal of the chroot). */
export function withoutChroot(chroot: string | undefined, path: string): string {
  if (!chroot || !path.startsWith(chroot)) return path;
  return path.length === chroot.length ? '/' : path.slice(chroot.length);
}

/** nzc sets the real xid when it writes the request; until then it matches no reply. */
const XID_NOT_YET_SENT = -1000;

/** A request with `body` after the header (length, xid, op code). */
export function rawRequest(opCode: number, body: Buffer): NzcRawRequest {
  const header = { xid: XID_NOT_YET_SENT, type: NZC_TYPE_WITHOUT_REPLY_BODY };
  return {
    header,
    payload: null,
    toBuffer(): Buffer {
      const buffer = Buffer.alloc(4 + 4 + 4 + body.length);
      let offset = buffer.writeInt32BE(buffer.length - 4, 0);
      offset = buffer.writeInt32BE(header.xid, offset);
      offset = buffer.writeInt32BE(opCode, offset);
      body.copy(buffer, offset);
      return buffer;
    },
  };
}

/** `ustring path; int value`: AddWatchRequest, RemoveWatchesRequest. */
function pathAndInt(path: string, value: number): Buffer {
  const pathBytes = Buffer.from(path, 'utf8');
  const body = Buffer.alloc(4 + pathBytes.length + 4);
  const offset = body.writeInt32BE(pathBytes.length, 0);
  pathBytes.copy(body, offset);
  body.writeInt32BE(value, offset + pathBytes.length);
  return body;
}

export function addWatchRequest(path: string, mode: number): NzcRawRequest {
  return rawRequest(OP_ADD_WATCH, pathAndInt(path, mode));
}

export function removeWatchesRequest(path: string, watcherType: number): NzcRawRequest {
  return rawRequest(OP_REMOVE_WATCHES, pathAndInt(path, watcherType));
}
