// The API reference builds without a warning: every export documented, every link resolved,
// every type a signature names exported too. TypeDoc runs with the repository's typedoc.json, as
// `npm run docs` does, but writes nothing (`--emit none`): the warnings come from converting
// and validating, and rendering the HTML would only add time. It takes about 30 s of CPU (a
// program per package), so it runs once, here. TypeDoc does not type-check the programs
// (`skipErrorChecking` in typedoc.json): they are the packages' tsconfig.json projects, which
// `tsc -b` checked before any test ran; checking them again took half of TypeDoc's time.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { timing } from '@zkrecipes/testing';

/** The repository's root directory (this file is test/dist/test/lint/*.js). */
const REPO_ROOT = new URL('../../../../', import.meta.url).pathname;
const TYPEDOC = join(REPO_ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc');

function typedoc(args: readonly string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TYPEDOC, ...args], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('the API reference (typedoc.json)', () => {
  it('builds with no warning and no error', { timeout: timing.ms(600_000) }, async () => {
    const { code, output } = await typedoc(['--emit', 'none', '--logLevel', 'Warn']);
    // Colour codes off or not, a warning line holds "[warning]" and an error line "[error]".
    const problems = output.split('\n').filter((line) => /\[(warning|error)\]/.test(line));
    assert.deepEqual(problems, [], output);
    assert.equal(code, 0, output);
  });
});
