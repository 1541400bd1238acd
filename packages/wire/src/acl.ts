// The ACL record and its encoding, shared by every create.
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
