import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { parseTimingScale, timing, TIMING_SCALE_ENV } from '../src/index.js';

describe('timing', () => {
  const original = process.env[TIMING_SCALE_ENV];
  afterEach(() => {
    if (original === undefined) delete process.env[TIMING_SCALE_ENV];
    else process.env[TIMING_SCALE_ENV] = original;
  });

  it('parseTimingScale defaults to 1 when unset or blank', () => {
    assert.equal(parseTimingScale(undefined), 1);
    assert.equal(parseTimingScale(''), 1);
    assert.equal(parseTimingScale('  '), 1);
  });

  it('parseTimingScale accepts positive numbers, including fractions', () => {
    assert.equal(parseTimingScale('3'), 3);
    assert.equal(parseTimingScale('0.5'), 0.5);
  });

  it('parseTimingScale rejects zero, negatives, infinity and text with an error naming the variable', () => {
    for (const bad of ['0', '-1', 'Infinity', 'abc', '2x']) {
      assert.throws(
        () => parseTimingScale(bad),
        new RegExp(`${TIMING_SCALE_ENV} must be a positive number.*${JSON.stringify(bad)}`),
        bad,
      );
    }
  });

  it('timing.ms multiplies by the scale from the environment, rounding up', () => {
    process.env[TIMING_SCALE_ENV] = '2.5';
    assert.equal(timing.scale, 2.5);
    assert.equal(timing.ms(100), 250);
    assert.equal(timing.ms(1), 3);
    delete process.env[TIMING_SCALE_ENV];
    assert.equal(timing.ms(100), 100);
  });

  it('timing.scale throws on a bad environment value instead of guessing', () => {
    process.env[TIMING_SCALE_ENV] = 'fast';
    assert.throws(() => timing.ms(100), /ZK_TEST_TIMING_SCALE must be a positive number/);
  });
});
