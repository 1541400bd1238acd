import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkCounter } from './counter-checker.js';
import { call } from './hand-made.js';

const cas = (expected: number, next: number): object => ({ expected, next });

describe('checkCounter', () => {
  it('accepts a trySetCount race: one wins, the other reads false', () => {
    const events = [
      ...call('count', 0, 'trySetCount', cas(0, 1), 0, 10, 'ok', true),
      ...call('count', 1, 'trySetCount', cas(0, 1), 1, 12, 'ok', false),
      ...call('count', 1, 'trySetCount', cas(1, 2), 13, 20, 'ok', true),
    ].sort((a, b) => a.t - b.t);
    const result = checkCounter(events, 'count', { value: 2, invoke: 30, complete: 31 });
    assert.deepEqual(result.violations, []);
  });

  it('accepts an unknown trySetCount that did take effect', () => {
    const events = [
      ...call('count', 0, 'trySetCount', cas(0, 1), 0, 10, 'unknown'),
      ...call('count', 1, 'trySetCount', cas(1, 2), 13, 20, 'ok', true),
    ].sort((a, b) => a.t - b.t);
    const result = checkCounter(events, 'count', { value: 2, invoke: 30, complete: 31 });
    assert.deepEqual(result.violations, []);
  });

  it('flags trySetCount false after its write took effect (a lost reply retried into BAD_VERSION)', () => {
    const events = [
      // worker 0 wrote 0 -> 1, but was told false
      ...call('count', 0, 'trySetCount', cas(0, 1), 0, 10, 'ok', false),
      // worker 1 saw 1 and wrote 2
      ...call('count', 1, 'trySetCount', cas(1, 2), 11, 20, 'ok', true),
    ].sort((a, b) => a.t - b.t);
    const result = checkCounter(events, 'count', { value: 2, invoke: 30, complete: 31 });
    assert.equal(result.violations.length, 1);
    assert.match(result.violations[0]?.message ?? '', /not linearizable/);
  });

  it("flags an increment applied twice (its first write's reply lost, then retried)", () => {
    const events = [
      // the first attempt wrote 0 -> 1 unseen; the retry read 1 and wrote 2
      ...call('along', 0, 'increment', {}, 0, 10, 'ok', { succeeded: true, pre: 1, post: 2 }),
      ...call('along', 1, 'increment', {}, 11, 15, 'ok', { succeeded: true, pre: 2, post: 3 }),
    ].sort((a, b) => a.t - b.t);
    const result = checkCounter(events, 'along', { value: 3, invoke: 30, complete: 31 });
    assert.equal(result.violations.length, 1);
  });

  it('accepts increments and compareAndSets, with an unknown increment and a process that died', () => {
    const events = [
      ...call('along', 0, 'increment', {}, 0, 5, 'ok', { succeeded: true, pre: 0, post: 1 }),
      ...call('along', 1, 'increment', {}, 1, 8, 'unknown'),
      ...call('along', 2, 'compareAndSet', cas(2, 3), 9, 12, 'ok', {
        succeeded: true,
        pre: 2,
        post: 3,
      }),
      ...call('along', 3, 'increment', {}, 13, undefined, 'unknown'),
      ...call('along', 0, 'compareAndSet', cas(1, 2), 14, 16, 'ok', {
        succeeded: false,
        pre: 3,
        post: 0,
      }),
    ].sort((a, b) => a.t - b.t);
    const result = checkCounter(events, 'along', { value: 4, invoke: 30, complete: 31 });
    assert.deepEqual(result.violations, []);
  });

  it('flags a final value no set of outcomes explains', () => {
    const events = [
      ...call('along', 0, 'increment', {}, 0, 5, 'ok', { succeeded: true, pre: 0, post: 1 }),
    ];
    const result = checkCounter(events, 'along', { value: 3, invoke: 30, complete: 31 });
    assert.equal(result.violations.length, 1);
  });
});
