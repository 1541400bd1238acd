/**
 * Requests written in ZooKeeper's wire format and handed to nzc's packet queue as they are:
 * the ones nzc 1.1.3 does not know (`addWatch`, 3.6+ persistent watches, `removeWatches`,
 * `multiRead`, ...) and every other request the adapter encodes itself with @zkrecipes/wire.
 * Only the adapter uses this; no nzc code is loaded here.
 *
 * nzc queues them, assigns their xids, writes them and keeps them in its pending queue, which
 * is what orders them with its own requests. Their replies never reach nzc's decoder: the
 * reply tap (nzc-reply-tap.ts) answers a raw request at the head of that queue itself and
 * hands its callback the body. The type in the header nzc sees says DELETE (no body in the
 * reply) while the bytes on the wire carry the real op code, so nzc's handler would still do
 * the right thing with one.
 */
import { encodeRequest } from '@zkrecipes/wire';

/** nzc's DELETE: "no body in the reply" for its reply decoder. */
const NZC_TYPE_WITHOUT_REPLY_BODY = 2;

/** What nzc's packet queue needs from a request, and the tap's mark. */
export interface NzcRawRequest {
  readonly header: { xid: number; readonly type: number };
  readonly payload: null;
  /** The reply tap answers this request's reply itself. */
  readonly raw: true;
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
  if (path.length === chroot.length) return '/';
  // A path outside the chroot that merely starts with its name ('/zookeeper/config' under
  // '/zoo') is not under it.
  return path[chroot.length] === '/' ? path.slice(chroot.length) : path;
}

/** nzc sets the real xid when it writes the request; until then it matches no reply. */
const XID_NOT_YET_SENT = -1000;

/** A request with `body` after the header (length, xid, op code). */
export function rawRequest(opCode: number, body: Buffer): NzcRawRequest {
  const header = { xid: XID_NOT_YET_SENT, type: NZC_TYPE_WITHOUT_REPLY_BODY };
  return {
    header,
    payload: null,
    raw: true,
    toBuffer(): Buffer {
      return encodeRequest(header.xid, opCode, body);
    },
  };
}
