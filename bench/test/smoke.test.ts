import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const main = fileURLToPath(new URL('../src/main.js', import.meta.url));

interface Line {
  impl: string;
  scenario: string;
  n: number;
  p50_ms: number;
  notes: string;
}

/** Runs `--quick --scenario <scenario>` against its own server; its one JSON line. */
function runQuick(scenario: string): Line {
  const run = spawnSync(process.execPath, [main, '--quick', '--scenario', scenario], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stdout.trim().split('\n');
  assert.equal(lines.length, 1);
  const line = JSON.parse(lines[0]!) as Line;
  assert.equal(line.impl, 'zkrecipes');
  assert.equal(line.scenario, scenario);
  assert.ok(!line.notes.startsWith('FAIL') && !line.notes.startsWith('ERROR'), line.notes);
  return line;
}

describe('npm run bench (smoke)', () => {
  it('--quick --scenario mutex.uncontended prints one passing JSON line against its own server', () => {
    assert.equal(runQuick('mutex.uncontended').n, 300);
  });

  it('extra.mutex.overhead reports both medians and the lock overhead between them', () => {
    const line = runQuick('extra.mutex.overhead');
    assert.equal(line.n, 300);
    const field = (name: string): number => {
      const match = new RegExp(`${name}=(-?[0-9.]+)`).exec(line.notes);
      assert.ok(match, `${name} missing: ${line.notes}`);
      return Number(match[1]);
    };
    const requestsMs = field('requests_p50_ms');
    assert.ok(requestsMs > 0, line.notes);
    const overheadMs = field('lock_overhead_p50_ms');
    assert.ok(Math.abs(line.p50_ms - requestsMs - overheadMs) < 0.002, line.notes);
  });

  it('extra.rwlock.readers.wire runs the read lock cycle on bare sessions and reports its CPU', () => {
    const line = runQuick('extra.rwlock.readers.wire');
    assert.equal(line.n, 160);
    const match = /client_cpu_us_per_cycle=([0-9]+)/.exec(line.notes);
    assert.ok(match && Number(match[1]) > 0, line.notes);
  });

  it('extra.mutex.contended.wire hands a lock over between bare sessions with no overlap', () => {
    const line = runQuick('extra.mutex.contended.wire');
    assert.equal(line.n, 200);
    assert.ok(line.p50_ms > 0, line.notes);
  });
});
