import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkLeader } from './leader-checker.js';
import { claim, end } from './hand-made.js';

describe('checkLeader', () => {
  it('accepts leaderships that hand over when the leader closes its latch', () => {
    const result = checkLeader([
      claim('leader', 0, 'n1', 0, 2000),
      claim('leader', 0, 'n1', 500, 2500),
      end('leader', 0, 'n1', 600),
      claim('leader', 2, 'n2', 650, 2650),
    ]);
    assert.deepEqual(result.violations, []);
    assert.equal(result.ops, 2);
  });

  it("accepts a new leader once the old one's validity ran out, and ignores unsound claims", () => {
    const result = checkLeader([
      claim('leader', 0, 'n1', 0, 2000),
      claim('leader', 1, 'n2', 4000, 6000),
      claim('leader', 0, 'n1', 4100, 2000),
    ]);
    assert.deepEqual(result.violations, []);
  });

  it('flags two sound leaders at once', () => {
    const result = checkLeader([
      claim('leader', 0, 'n1', 0, 2000),
      claim('leader', 1, 'n2', 1500, 3500),
    ]);
    assert.equal(result.violations.length, 1);
    assert.match(result.violations[0]?.message ?? '', /w0:n1.*w1:n2/);
  });

  it('judges LeaderSelector leaderships on their own', () => {
    const result = checkLeader(
      [
        claim('selector', 0, 's1', 0, 2000),
        claim('leader', 1, 'n1', 100, 2000),
        end('selector', 0, 's1', 300),
        claim('selector', 1, 's2', 350, 2000),
      ],
      'selector',
    );
    assert.deepEqual(result.violations, []);
    assert.equal(result.checker, 'leader:LeaderSelector');
    assert.equal(result.ops, 2);
  });

  it('keeps two leaderships of one worker apart (a new node after a new session)', () => {
    const result = checkLeader([
      claim('leader', 0, 'n1', 0, 2000),
      claim('leader', 1, 'n2', 5000, 7000),
      end('leader', 1, 'n2', 5100),
      claim('leader', 0, 'n3', 5200, 7200),
    ]);
    assert.deepEqual(result.violations, []);
  });
});
