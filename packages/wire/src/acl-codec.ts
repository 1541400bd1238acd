// getACL (op 6) and setACL (op 7), for a client that encodes and decodes them itself.
//
// Requests: GetACLRequest {ustring path} (encodePath); SetACLRequest {ustring path,
// vector<ACL> acl, int version}.
// Replies: GetACLResponse {vector<ACL> acl, Stat stat}; SetACLResponse {Stat stat} (decodeStat).
import { readAcls, writeAcls, type Acl } from './acl.js';
import { JuteReader } from './jute-reader.js';
import { JuteWriter } from './jute-writer.js';
import { decodeStat, type Stat } from './stat.js';

/** The body of setACL; `version` (the node's aversion) -1 matches any version. */
export function encodeSetAcl(path: string, acl: readonly Acl[], version: number): Buffer {
  const writer = new JuteWriter(path.length * 3 + acl.length * 40 + 12).string(path);
  return writeAcls(writer, acl).int(version).toBuffer();
}

/** A getACL reply: the node's ACL and its Stat. */
export function decodeGetAcl(body: Buffer): {
  /** The node's access-control list, in the server's order. */
  acl: Acl[];
  /** The node's Stat. */
  stat: Stat;
} {
  const reader = new JuteReader(body);
  const acl = readAcls(reader);
  return { acl, stat: decodeStat(body, reader.offset) };
}
