// The size of a request on the wire, counted before it is sent. The server closes the
// connection on a packet over its jute.maxbuffer; the client would then see CONNECTION_LOSS,
// retry the same packet, and every hold on the connection would see SUSPENDED each time. A
// request that cannot fit is refused here instead, with an error that says why.
import { Buffer } from 'node:buffer';
import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import type { Acl, WireTransactionOp } from '../zk/zookeeper-types.js';

/** The request header: xid and op code. */
const HEADER_BYTES = 8;
/** A multi's per-op header: int type, boolean done, int err. */
const MULTI_HEADER_BYTES = 9;

/** What a request body holds, sized as jute writes it. */
export interface RequestShape {
  /** The path's bytes as the server sees them (chroot added by the caller). */
  readonly pathBytes: number;
  readonly data?: Buffer | undefined;
  readonly acl?: readonly Acl[] | undefined;
}

function aclBytes(acl: readonly Acl[]): number {
  return acl.reduce(
    (sum, entry) =>
      sum + 4 + 4 + Buffer.byteLength(entry.id.scheme) + 4 + Buffer.byteLength(entry.id.id),
    4,
  );
}

/** A create, setData or setAcl body: path, data and ACL where the request has them, flags. */
export function bodyBytes(shape: RequestShape): number {
  const data = shape.data === undefined ? 0 : 4 + shape.data.length;
  const acl = shape.acl === undefined ? 0 : aclBytes(shape.acl);
  return 4 + shape.pathBytes + data + acl + 4;
}

/** The bytes of a multi with `ops` (paths measured with `pathBytes`). */
export function multiBytes(
  ops: readonly WireTransactionOp[],
  pathBytes: (path: string) => number,
): number {
  let total = MULTI_HEADER_BYTES; // the closing header
  for (const op of ops) {
    const path = pathBytes(op.path);
    const shape =
      op.type === 'create'
        ? { pathBytes: path, data: op.data, acl: op.acl }
        : op.type === 'setData'
          ? { pathBytes: path, data: op.data }
          : { pathBytes: path };
    total += MULTI_HEADER_BYTES + bodyBytes(shape);
  }
  return total;
}

/**
 * Throws InvalidArgumentError when a request with a body of `bodySize` bytes would exceed
 * `maxRequestBytes` (the server's jute.maxbuffer).
 */
export function checkRequestSize(
  operation: string,
  bodySize: number,
  maxRequestBytes: number,
  path: string | undefined,
): void {
  const size = HEADER_BYTES + bodySize;
  if (size <= maxRequestBytes) return;
  throw new InvalidArgumentError(
    `${operation}: the request would be ${size} bytes, over the server's limit of ` +
      `${maxRequestBytes} (jute.maxbuffer; set maxRequestBytes to match a server that raised it)`,
    { path },
  );
}
