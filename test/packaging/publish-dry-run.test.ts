// What `npm publish` would do with each public package, and the CLI's bin inside this
// repository after setup: checked without publishing anything (--dry-run, no registry login).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { publicPackageDirs, REPO_ROOT } from './pack-packages.js';

const run = promisify(execFile);

/**
 * npm's warnings in `log` (its stderr, in order), by the package they came with: each package's
 * warnings come before the `📦  name@version` line of its report; what follows the last report
 * goes with the last package.
 */
function warningsByPackage(log: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  let pending: string[] = [];
  let last: string | undefined;
  for (const line of log.split('\n')) {
    const packed = /📦\s+(@?[^@\s]+)@/u.exec(line);
    if (packed) {
      last = packed[1]!;
      found.set(last, [...(found.get(last) ?? []), ...pending]);
      pending = [];
    } else if (/npm warn (publish|package-json)/.test(line)) {
      pending.push(line);
    }
  }
  if (pending.length > 0) {
    const key = last ?? '(before any package)';
    found.set(key, [...(found.get(key) ?? []), ...pending]);
  }
  return found;
}

describe('publishing', () => {
  it('npm publish --dry-run of every public package rewrites and drops nothing', async () => {
    const dirs = publicPackageDirs();
    assert.ok(dirs.length >= 10, `${dirs.length} public packages`);
    const names = dirs.map(
      (dir) =>
        (JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8')) as { name: string })
          .name,
    );
    // One npm for every package (as a release of the workspaces publishes them): npm's own start
    // took most of the time of one npm per package.
    // --ignore-scripts: the build is the packing test's business; here only the manifest counts.
    // --loglevel notice: the report is npm's notices, which a caller's `npm run -s` (silent,
    // passed down in npm_config_loglevel) would otherwise turn off.
    const workspaces = dirs.flatMap((dir) => ['--workspace', dir]);
    const { stderr } = await run(
      'npm',
      ['publish', '--dry-run', '--ignore-scripts', '--loglevel', 'notice', ...workspaces],
      { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 },
    );
    // npm warns when it corrects a manifest ("was invalid and removed", "npm pkg fix") or
    // misses a file it names; the only warning expected is the dry run's missing login.
    const warnings = warningsByPackage(stderr);
    const unexpected = Object.fromEntries(
      [...warnings].map(([name, lines]) => [
        name,
        lines.filter((line) => !/requires you to be logged in/.test(line)),
      ]),
    );
    // Every package was packed (its report names it), and none has a warning.
    assert.deepEqual(unexpected, Object.fromEntries(names.map((name) => [name, []])));
  });

  it('`npx --no-install zkrecipes --version` works inside the repository after setup', async () => {
    const { version } = JSON.parse(
      readFileSync(join(REPO_ROOT, 'packages', 'cli', 'package.json'), 'utf8'),
    ) as { version: string };
    const { stdout } = await run('npx', ['--no-install', 'zkrecipes', '--version'], {
      cwd: REPO_ROOT,
    });
    assert.equal(stdout.trim(), version);
  });
});
