import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkMutex } from './mutex-checker.js';
import { claim, end } from './hand-made.js';

describe('checkMutex', () => {
  it('accepts holds one after the other with growing tokens', () => {
    const result = checkMutex([
      claim('mutex', 0, 'a', 0, 3000, 10),
      claim('mutex', 0, 'a', 100, 3100, 10),
      end('mutex', 0, 'a', 200),
      claim('mutex', 1, 'b', 210, 3200, 12),
      end('mutex', 1, 'b', 400),
    ]);
    assert.deepEqual(result.violations, []);
    assert.equal(result.ops, 2);
  });

  it('accepts an overlap once the earlier hold had expired (a paused holder)', () => {
    const result = checkMutex([
      claim('mutex', 0, 'a', 0, 2000, 10),
      // worker 0 was stopped; its session expired and worker 1 took the lock at 5000.
      claim('mutex', 1, 'b', 5000, 7000, 12),
      // worker 0 wakes up: its hold is no longer sound, and it says so.
      claim('mutex', 0, 'a', 5500, null, 10),
      end('mutex', 0, 'a', 5600),
    ]);
    assert.deepEqual(result.violations, []);
  });

  it('flags two sound holds at once, naming both', () => {
    const result = checkMutex([
      claim('mutex', 0, 'a', 0, 3000, 10),
      claim('mutex', 1, 'b', 1000, 4000, 12),
    ]);
    assert.equal(result.violations.length, 1);
    assert.match(result.violations[0]?.message ?? '', /overlap.*w0:a.*w1:b/);
  });

  it('flags an overlap with a hold whose later claim extended it', () => {
    const result = checkMutex([
      claim('mutex', 0, 'a', 0, 1000, 10),
      claim('mutex', 1, 'b', 1500, 2000, 12),
      end('mutex', 1, 'b', 1600),
      // still sound at 1800: so it was sound throughout, while b held the lock
      claim('mutex', 0, 'a', 1800, 3000, 10),
    ]);
    assert.equal(result.violations.length, 1);
  });

  it('flags a token that does not grow from one hold to the next', () => {
    const result = checkMutex([
      claim('mutex', 0, 'a', 0, 3000, 12),
      end('mutex', 0, 'a', 100),
      claim('mutex', 1, 'b', 200, 3200, 12),
    ]);
    assert.equal(result.violations.length, 1);
    assert.match(result.violations[0]?.message ?? '', /fencing token did not grow/);
  });
});
