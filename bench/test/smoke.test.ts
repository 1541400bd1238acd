import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const main = fileURLToPath(new URL('../src/main.js', import.meta.url));

describe('npm run bench (smoke)', () => {
  it('--quick --scenario mutex.uncontended prints one passing JSON line against its own server', () => {
    const run = spawnSync(process.execPath, [main, '--quick', '--scenario', 'mutex.uncontended'], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(run.status, 0, run.stderr);
    const lines = run.stdout.trim().split('\n');
    assert.equal(lines.length, 1);
    const line = JSON.parse(lines[0]!) as {
      impl: string;
      scenario: string;
      n: number;
      notes: string;
    };
    assert.equal(line.impl, 'zkrecipes');
    assert.equal(line.scenario, 'mutex.uncontended');
    assert.equal(line.n, 300);
    assert.ok(!line.notes.startsWith('FAIL') && !line.notes.startsWith('ERROR'), line.notes);
  });
});
