// ZooKeeper's creates that answer with the new node's Stat: create2 (op 15, 3.5+: a lock
// learns its node's czxid, its fencing token, without a second round trip), createContainer
// (op 19, 3.5.1+) and createTTL (op 21, 3.5.3+ with `zookeeper.extendedTypesEnabled=true`).
// node-zookeeper-client 1.1.3 has none of them.
//
// Request: CreateRequest {ustring path, buffer data, vector<ACL> acl, int flags}; createTTL's
// CreateTTLRequest adds {long ttl}. The classic create (op 1) sends the same record.
// Reply: Create2Response {ustring path, Stat stat}; the classic create's CreateResponse is
// the path alone.
import { writeAcls, type Acl } from './acl.js';
import type { CreateModeName } from './create-flag.js';
import { JuteReader } from './jute-reader.js';
import { JuteWriter } from './jute-writer.js';
import { OpCode } from './op-code.js';
import { STAT_BYTES } from './stat.js';

/**
 * The CreateRequest body (after the request header); `path` already carries any chroot,
 * `flags` is a `CreateFlag` number. With `ttlMs` it is a CreateTTLRequest.
 */
export function encodeCreate2(
  path: string,
  data: Buffer,
  acl: readonly Acl[],
  flags: number,
  ttlMs?: number,
): Buffer {
  const writer = new JuteWriter(path.length * 3 + data.length + acl.length * 40 + 24);
  writeAcls(writer.string(path).buffer(data), acl).int(flags);
  if (ttlMs !== undefined) writer.long(ttlMs);
  return writer.toBuffer();
}

/** The created path (as the server names it, chroot included) and its raw 68-byte Stat. */
export function decodeCreate2(body: Buffer): {
  /** The created path, as the server names it (chroot included, sequence appended). */
  path: string;
  /** The new node's Stat, raw (see `decodeStat`). */
  stat: Buffer;
} {
  const reader = new JuteReader(body);
  const path = reader.string() ?? '';
  return { path, stat: reader.bytes(STAT_BYTES) };
}

/** The classic create's CreateResponse: the created path (as the server names it). */
export function decodeCreate(body: Buffer): string {
  return new JuteReader(body).string() ?? '';
}

/** The op that creates a node in `mode` and answers with its Stat. */
export function create2OpCode(mode: CreateModeName): number {
  if (mode === 'CONTAINER') return OpCode.createContainer;
  if (mode === 'PERSISTENT_WITH_TTL' || mode === 'PERSISTENT_SEQUENTIAL_WITH_TTL') {
    return OpCode.createTTL;
  }
  return OpCode.create2;
}
