// What a test installs into a throwaway project in place of the registry: our packages from
// their tarballs, the tools from this repository's node_modules.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, withOurDependencies } from './pack-packages.js';

/** Registry dependencies come from npm's cache when it has them: usually no network. */
export const NPM_INSTALL_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund'];

/**
 * `npm install` arguments with our packages replaced by their tarballs, and everything else
 * (typescript, @types/node) by the copy this repository builds with: the same compiler, and no
 * network needed for it. Our packages' own @zkrecipes dependencies (@zkrecipes/wire under the
 * framework) come along as tarballs too, where the registry would have supplied them.
 */
export function fromLocalSources(
  args: readonly string[],
  tarballs: ReadonlyMap<string, string>,
): string[] {
  const named = args.filter((arg) => tarballs.has(arg));
  const alongside = withOurDependencies(named)
    .filter((name) => !named.includes(name))
    .map((name) => tarballs.get(name)!);
  const local = args.map((arg) => {
    if (arg.startsWith('-') || arg === 'install') return arg;
    const local = tarballs.get(arg) ?? join(REPO_ROOT, 'node_modules', arg);
    assert.ok(existsSync(local), `nothing local stands in for '${arg}'`);
    return local;
  });
  return [...local, ...alongside];
}
