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

describe('publishing', () => {
  it('npm publish --dry-run of every public package rewrites and drops nothing', async () => {
    const dirs = publicPackageDirs();
    assert.ok(dirs.length >= 10, `${dirs.length} public packages`);
    for (const dir of dirs) {
      // --ignore-scripts: the build is the packing test's business; here only the manifest counts.
      // --loglevel notice: the report is npm's notices, which a caller's `npm run -s` (silent,
      // passed down in npm_config_loglevel) would otherwise turn off.
      const { stdout, stderr } = await run(
        'npm',
        ['publish', '--dry-run', '--ignore-scripts', '--no-workspaces', '--loglevel', 'notice'],
        { cwd: join(REPO_ROOT, dir), maxBuffer: 16 * 1024 * 1024 },
      );
      const output = `${stdout}\n${stderr}`;
      // npm warns when it corrects a manifest ("was invalid and removed", "npm pkg fix") or
      // misses a file it names; the only warning expected is the dry run's missing login.
      const warnings = output
        .split('\n')
        .filter((line) => /npm warn (publish|package-json)/.test(line))
        .filter((line) => !/requires you to be logged in/.test(line));
      assert.deepEqual(warnings, [], dir);
      const { name } = JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8')) as {
        name: string;
      };
      assert.match(output, new RegExp(`${name.replace('/', '\\/')}@`), `${dir} was packed`);
    }
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
