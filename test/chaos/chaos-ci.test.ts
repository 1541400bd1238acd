// The chaos suite's CI portion (ci-portion.ts): one seed, 35 s of faults, every checker run,
// the enforced ones must find nothing. The full runs are `npm run chaos` (docs/chaos.md).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { describe, it } from 'node:test';
import { CI_COUNTER_OPS, CI_DURATION_MS, CI_SEED, ciEnforced } from './ci-portion.js';
import { CHECKERS, runChaos } from './run-chaos.js';

describe('chaos: a seeded fault schedule against every workload (CI portion)', () => {
  it(`seed ${CI_SEED}, ${CI_DURATION_MS / 1000} s of faults: no enforced checker finds a violation`, async (t) => {
    const report = await runChaos({
      seed: CI_SEED,
      durationMs: CI_DURATION_MS,
      counterOps: CI_COUNTER_OPS,
      enforced: ciEnforced(),
      log: (line) => t.diagnostic(line),
    });
    for (const line of report.text.split('\n')) t.diagnostic(line);
    assert.equal(report.failed, false, report.text);
    // Not vacuous: the faults happened and every checker had something to judge.
    assert.equal(report.faults.done + report.faults.skipped, report.faults.scheduled, report.text);
    assert.deepEqual(
      report.results.map((result) => result.checker),
      [...CHECKERS],
    );
    for (const result of report.results) assert.ok(result.ops > 0, `${result.checker}: no ops`);
    rmSync(report.runDir, { recursive: true, force: true });
  });
});
