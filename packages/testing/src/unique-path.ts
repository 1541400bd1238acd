// Each test works under its own path so tests sharing one server cannot see each other's
// nodes, and a rerun against a server that kept data does not trip over old ones.
import { randomBytes } from 'node:crypto';

/**
 * A fresh absolute ZooKeeper path: `uniquePath('locks')` -> `/locks-3f9a0c1be27d`.
 * A prefix may contain `/` to nest (`'app/locks'` -> `/app/locks-…`); its parents must
 * then exist before the path is created. Leading and trailing slashes are ignored.
 */
export function uniquePath(prefix = 'test'): string {
  const trimmed = prefix.replace(/^\/+|\/+$/g, '');
  if (
    trimmed === '' ||
    trimmed.split('/').some((part) => part === '' || part === '.' || part === '..')
  ) {
    throw new Error(`uniquePath: invalid prefix ${JSON.stringify(prefix)}`);
  }
  return `/${trimmed}-${randomBytes(6).toString('hex')}`;
}
