import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertBetween, elapsedMs, isTimeoutError, timed } from '../src/timed-call.js';
import { percentile } from '../src/percentile.js';

describe('timed', () => {
  it('records the value of a call that resolves, and no error', async () => {
    const result = await timed(() => Promise.resolve(42));
    assert.equal(result.value, 42);
    assert.ok('value' in result && !('error' in result));
    assert.ok(result.ms >= 0);
  });

  it('records the error of a call that rejects, or throws before returning its promise', async () => {
    const failure = new Error('no');
    const rejected = await timed(() => Promise.reject(failure));
    assert.equal(rejected.error, failure);
    assert.ok(!('value' in rejected));
    const thrown = await timed(() => {
      throw failure;
    });
    assert.equal(thrown.error, failure);
  });

  it('measures how long the call took to settle', async () => {
    const result = await timed(() => new Promise((resolve) => setTimeout(resolve, 50)));
    assertBetween('a 50 ms timer', result, 50, 5000);
  });
});

describe('elapsedMs', () => {
  it('measures a call that resolves and passes a rejection on', async () => {
    const ms = await elapsedMs(() => new Promise((resolve) => setTimeout(resolve, 50)));
    assert.ok(ms >= 48 && ms < 5000, `${ms} ms`);
    const failure = new Error('no');
    await assert.rejects(
      elapsedMs(() => Promise.reject(failure)),
      (error) => error === failure,
    );
  });
});

describe('assertBetween', () => {
  it('fails outside [min - 2, max) and names the label', () => {
    assertBetween('inside', { ms: 98.5 }, 100, 200);
    assert.throws(() => assertBetween('early', { ms: 97 }, 100, 200), /early settled after 97 ms/);
    assert.throws(() => assertBetween('late', { ms: 200 }, 100, 200), /not in \[100, 200\)/);
  });
});

describe('isTimeoutError', () => {
  it('is true only for the error AbortSignal.timeout aborts with', async () => {
    const signal = AbortSignal.timeout(1);
    // AbortSignal.timeout's timer does not keep the process alive; this one does, meanwhile.
    const keepAlive = setTimeout(() => undefined, 10_000);
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    clearTimeout(keepAlive);
    assert.equal(isTimeoutError(signal.reason), true);
    assert.equal(isTimeoutError(new DOMException('stop', 'AbortError')), false);
    assert.equal(isTimeoutError(new Error('TimeoutError')), false);
  });
});

describe('percentile', () => {
  it('takes the nearest rank, as the peer benchmark does', () => {
    const samples = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    assert.equal(percentile(samples, 50), 5);
    assert.equal(percentile(samples, 90), 9);
    assert.equal(percentile(samples, 99), 10);
    assert.equal(percentile(samples, 0), 1);
    assert.ok(Number.isNaN(percentile([], 50)));
  });
});
