// The hash Curator's MigrationManager records for a migration: SHA-256 over, for each op, its
// full path, its op code in decimal and its request record as ZooKeeper's jute `toString()`
// prints it (ToStringOutputArchive: CSV, strings as 'text with %-escapes, buffers as # and
// Integer.toHexString of each signed byte, vectors v{...}, nested records s{...}, a newline at
// the end). Equal hashes let a Java MigrationManager and ours agree on what was applied.
import { createHash } from 'node:crypto';
import { type Acl, pathWithNamespace, type TransactionOp } from '@zkrecipes/framework';
import { CreateFlag, OpCode } from '@zkrecipes/wire';

/** An op without `acl` is hashed with Curator's default: world:anyone, all permissions. */
const OPEN_ACL: readonly Acl[] = [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }];
const ESCAPES: Readonly<Record<string, string>> = {
  '\0': '%00',
  '\n': '%0A',
  '\r': '%0D',
  ',': '%2C',
  '}': '%7D',
  '%': '%25',
};

const csvString = (text: string): string => `'${text.replace(/[\0\n\r,}%]/g, (c) => ESCAPES[c]!)}`;

function csvBuffer(data: Uint8Array | undefined): string {
  if (data === undefined || data.length === 0) return '';
  // Java's Integer.toHexString of a signed byte: 0x05 -> "5", 0x80 -> "ffffff80".
  return `#${[...data].map((b) => (b < 0x80 ? b : (b | 0xffffff00) >>> 0).toString(16)).join('')}`;
}

const aclVector = (acl: readonly Acl[]): string =>
  `v{${acl.map((a) => `s{${a.perms},s{${csvString(a.id.scheme)},${csvString(a.id.id)}}}`).join(',')}}`;

/** [op code, request record text] of one op, as ZooKeeper's `Op.toRequestRecord().toString()`. */
function record(op: TransactionOp, path: string): [number, string] {
  switch (op.type) {
    case 'create': {
      const mode = op.mode ?? 'PERSISTENT';
      const fields = [
        csvString(path),
        csvBuffer(op.data),
        aclVector(op.acl ?? OPEN_ACL),
        CreateFlag[mode],
      ];
      if (op.ttlMs !== undefined) return [OpCode.createTTL, [...fields, op.ttlMs].join(',')];
      const code = mode === 'CONTAINER' ? OpCode.createContainer : OpCode.create;
      return [code, fields.join(',')];
    }
    case 'delete':
      return [OpCode.delete, `${csvString(path)},${op.version ?? -1}`];
    case 'setData':
      return [OpCode.setData, `${csvString(path)},${csvBuffer(op.data)},${op.version ?? -1}`];
    case 'check':
      return [OpCode.check, `${csvString(path)},${op.version ?? -1}`];
  }
}

/** Curator's hash of a migration's ops, paths taken in `namespace` (32 bytes). */
export function migrationHash(
  ops: readonly TransactionOp[],
  namespace: string | undefined,
): Buffer {
  const digest = createHash('sha256');
  for (const op of ops) {
    const path = pathWithNamespace(namespace, op.path);
    const [code, text] = record(op, path);
    digest.update(path, 'utf8');
    digest.update(String(code), 'utf8');
    digest.update(`${text}\n`, 'utf8');
  }
  return digest.digest();
}
