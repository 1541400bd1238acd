// The ACL record and its encoding, shared by every create, setACL and the getACL reply.
import type { JuteReader } from './jute-reader.js';
import type { JuteWriter } from './jute-writer.js';

/** One access-control entry: the permissions granted to an identity. */
export interface Acl {
  /** A bit set of {@link Perms}. */
  readonly perms: number;
  /** Who gets the permissions. */
  readonly id: {
    /** The auth scheme: `'world'`, `'digest'`, `'ip'`, `'auth'`, ... */
    readonly scheme: string;
    /** The identity within the scheme, e.g. `'anyone'` or `'user:base64(sha1(user:password))'`. */
    readonly id: string;
  };
}

/** `vector<ACL>`: a count, then per entry {int perms, Id {ustring scheme, ustring id}}. */
export function writeAcls(writer: JuteWriter, acl: readonly Acl[]): JuteWriter {
  writer.int(acl.length);
  for (const entry of acl) writer.int(entry.perms).string(entry.id.scheme).string(entry.id.id);
  return writer;
}

/** Reads a `vector<ACL>` (see {@link writeAcls}); jute's null vector (-1) reads as empty. */
export function readAcls(reader: JuteReader): Acl[] {
  const count = reader.int();
  const acl: Acl[] = [];
  for (let i = 0; i < count; i++) {
    const perms = reader.int();
    const scheme = reader.string() ?? '';
    const id = reader.string() ?? '';
    acl.push({ perms, id: { scheme, id } });
  }
  return acl;
}
