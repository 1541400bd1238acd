import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { timing } from '@zkrecipes/testing';

// dist/test/demo.test.js -> dist/src/demo.js: the built demo, as `npm run demo` runs it.
const demo = new URL('../src/demo.js', import.meta.url).pathname;

function run(args: readonly string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [demo, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timing.ms(90_000));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('the worker-pool demo (npm run demo)', () => {
  it('runs end to end on an embedded server: the master is killed, another takes over, and no task is lost or done twice', async () => {
    const { code, output } = await run(['--workers', '3', '--tasks', '12', '--work-ms', '50-120']);
    assert.equal(code, 0, output);
    assert.match(output, /killing the master (worker-\d) \(pid \d+\) with SIGKILL/);
    const killed = /killing the master (worker-\d)/.exec(output)?.[1];
    const successor = /(worker-\d) is the new master, [\d.]+ s after the kill/.exec(output)?.[1];
    assert.ok(successor !== undefined && successor !== killed, output);
    assert.match(output, /\| tasks \d+ pending, \d+ assigned, \d+\/12 done/, 'a status line');
    assert.match(
      output,
      /^check: 12 tasks offered, 12 done exactly once, queue and assignments empty: no task lost or done twice$/m,
    );
    assert.match(output, /^summary: masters worker-\d -> worker-\d/m);
  });

  it('--help prints the usage and exits 0; a bad option exits 1 with the usage', async () => {
    const help = await run(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.output, /^usage: npm run demo/m);
    const bad = await run(['--workers', 'lots']);
    assert.equal(bad.code, 1);
    assert.match(bad.output, /--workers must be a whole number/);
  });
});
