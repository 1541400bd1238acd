/**
 * ZooKeeper's creates that nzc 1.1.3 lacks, all answered with the new node's Stat: create2
 * (op 15, 3.5+: a lock learns its node's czxid, its fencing token, without a second round
 * trip), createContainer (op 19, 3.5.1+) and createTTL (op 21, 3.5.3+ with
 * `zookeeper.extendedTypesEnabled=true`). The adapter sends these bytes through nzc's packet
 * queue and takes the reply body off the socket before nzc sees it (see nzc-reply-tap.ts).
 *
 * Request: CreateRequest {ustring path, buffer data, vector<ACL> acl, int flags}, where an
 * ACL is {int perms, Id {ustring scheme, ustring id}}; createTTL's CreateTTLRequest adds
 * {long ttl}. `flags` is CreateMode's wire number (CONTAINER 4, the TTL modes 5 and 6).
 * Reply: Create2Response {ustring path, Stat stat}.
 */
import type { Acl } from './zookeeper-types.js';

export const OP_CREATE2 = 15;
export const OP_CREATE_CONTAINER = 19;
export const OP_CREATE_TTL = 21;

/**
 * The request body (after the request header); `path` already carries the chroot. With
 * `ttlMs` it is a CreateTTLRequest (the ttl after the flags).
 */
export function encodeCreate2(
  path: string,
  data: Buffer,
  acl: readonly Acl[],
  flags: number,
  ttlMs?: number,
): Buffer {
  const strings = (value: string): Buffer => Buffer.from(value, 'utf8');
  const pathBytes = strings(path);
  const entries = acl.map((entry) => ({
    perms: entry.perms,
    scheme: strings(entry.id.scheme),
    id: strings(entry.id.id),
  }));
  const aclBytes = entries.reduce((sum, e) => sum + 4 + 4 + e.scheme.length + 4 + e.id.length, 0);
  const ttlBytes = ttlMs === undefined ? 0 : 8;
  const buffer = Buffer.alloc(4 + pathBytes.length + 4 + data.length + 4 + aclBytes + 4 + ttlBytes);
  let offset = buffer.writeInt32BE(pathBytes.length, 0);
  offset += pathBytes.copy(buffer, offset);
  offset = buffer.writeInt32BE(data.length, offset);
  offset += data.copy(buffer, offset);
  offset = buffer.writeInt32BE(entries.length, offset);
  for (const entry of entries) {
    offset = buffer.writeInt32BE(entry.perms, offset);
    offset = buffer.writeInt32BE(entry.scheme.length, offset);
    offset += entry.scheme.copy(buffer, offset);
    offset = buffer.writeInt32BE(entry.id.length, offset);
    offset += entry.id.copy(buffer, offset);
  }
  offset = buffer.writeInt32BE(flags, offset);
  if (ttlMs !== undefined) buffer.writeBigInt64BE(BigInt(ttlMs), offset);
  return buffer;
}

/** The created path (as the server names it, chroot included) and its raw 68-byte Stat. */
export function decodeCreate2(body: Buffer): { path: string; stat: Buffer } {
  const length = body.readInt32BE(0);
  const path = body.toString('utf8', 4, 4 + length);
  return { path, stat: body.subarray(4 + length, 4 + length + 68) };
}
