import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeSchedule, type ScheduleOptions } from './schedule.js';

const options: ScheduleOptions = {
  seed: 42,
  durationMs: 90_000,
  workers: 5,
  killable: [0, 1, 2],
  sessionTimeoutMs: (worker) => (worker % 2 === 0 ? 3000 : 4000),
};

describe('makeSchedule', () => {
  it('gives the same schedule for the same seed, and another for another seed', () => {
    assert.deepEqual(makeSchedule(options), makeSchedule(options));
    assert.notDeepEqual(makeSchedule(options), makeSchedule({ ...options, seed: 43 }));
  });

  it('starts a fault every 2-5 s, SIGKILLs only killable workers, outlasts the session when long', () => {
    const faults = makeSchedule(options);
    assert.ok(faults.length >= 90 / 5 && faults.length <= 90 / 2 + 1, `${faults.length}`);
    for (let i = 1; i < faults.length; i++) {
      const gap = (faults[i]?.atMs ?? 0) - (faults[i - 1]?.atMs ?? 0);
      assert.ok(gap >= 2000 && gap <= 5000, `gap ${gap}`);
    }
    for (const fault of faults) {
      if (fault.kind === 'sigkill') assert.ok([0, 1, 2].includes(fault.worker ?? -1));
      if (fault.length === 'long') {
        const session = options.sessionTimeoutMs(fault.worker ?? 0);
        assert.ok((fault.durationMs ?? 0) > session, `${JSON.stringify(fault)}`);
      }
    }
    const kinds = new Set(faults.map((fault) => fault.kind));
    assert.ok(kinds.size >= 6, [...kinds].join(', '));
  });
});
