// What `zkrecipes --version` prints: the version in this package's package.json, read when
// asked, so it is always the version npm installed and never a copy that can drift.
import { readFileSync } from 'node:fs';

/** The version of @zkrecipes/cli, from its package.json (dist/src/ -> the package root). */
export function cliVersion(): string {
  const manifest = JSON.parse(
    readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
  ) as { version?: unknown };
  if (typeof manifest.version !== 'string') {
    throw new Error('the package.json of @zkrecipes/cli has no version');
  }
  return manifest.version;
}
