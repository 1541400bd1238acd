// `zkrecipes --version` as an operator runs it: the installed package's version, nothing else.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { runCli } from './helpers.js';

const manifest = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string };

describe('zkrecipes --version', () => {
  for (const args of [['--version'], ['-v'], ['version'], ['inspect', '/app', '--version']]) {
    it(`\`zkrecipes ${args.join(' ')}\` prints the package version and exits 0`, async () => {
      const run = await runCli(args);
      assert.deepEqual(
        { code: run.code, stdout: run.stdout, stderr: run.stderr },
        { code: 0, stdout: `${manifest.version}\n`, stderr: '' },
      );
    });
  }

  it('is listed in the usage text', async () => {
    const run = await runCli(['help']);
    assert.match(run.stdout, /-v, --version/);
  });
});
