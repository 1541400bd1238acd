// Two rounds of each ordering stress scenario in every test run; the 3 x 25-round runs with a
// CPU hog are `node test/dist/test/stress/run-stress.js --rounds 25 --hog` (docs/testing.md).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runStress } from './run-stress.js';

describe('ordering stress (queue stalls, group views, lock hand-offs)', () => {
  it('two rounds of each: no stall, loss, duplicate, overlap or inconsistent view', async () => {
    const lines: string[] = [];
    const failed = await runStress({
      rounds: 2,
      kinds: ['queue', 'group', 'lock'],
      hog: false,
      log: (line) => lines.push(line),
    });
    assert.equal(lines.length, 6, lines.join('\n'));
    assert.equal(failed, 0, lines.join('\n'));
  });
});
