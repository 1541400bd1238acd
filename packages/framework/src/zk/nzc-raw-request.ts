/**
 * Requests written in ZooKeeper's wire format and handed to nzc's packet queue as they are:
 * the ones nzc 1.1.3 does not know (`addWatch`, 3.6+ persistent watches, `removeWatches`,
 * `multiRead`, ...) and the reads whose replies the adapter decodes itself (exists, getData,
 * getChildren2, setData). Only the adapter uses this; no nzc code is loaded here.
 *
 * nzc picks how to decode a reply from the request header's `type` and drops the connection on
 * a type it does not know. The header nzc sees says DELETE (a bare reply header, no payload)
 * while the bytes on the wire carry the real op code; nzc still assigns the xid and matches the
 * reply by it. addWatch and removeWatches are answered that way; the body of a reply the
 * adapter decodes is taken off the stream before nzc sees it (nzc-reply-tap.ts).
 */
import { encodeAddWatch, encodeRemoveWatches, encodeRequest, OpCode } from '@zkrecipes/wire';

/** nzc's DELETE: "no body in the reply" for its reply decoder. */
const NZC_TYPE_WITHOUT_REPLY_BODY = 2;

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
      return encodeRequest(header.xid, opCode, body);
    },
  };
}

/** A persistent watch; `mode` is an `AddWatchMode` number. */
export function addWatchRequest(path: string, mode: number): NzcRawRequest {
  return rawRequest(OpCode.addWatch, encodeAddWatch(path, mode));
}

/** Removes `path`'s watches of a `WatcherType`. */
export function removeWatchesRequest(path: string, watcherType: number): NzcRawRequest {
  return rawRequest(OpCode.removeWatches, encodeRemoveWatches(path, watcherType));
}
