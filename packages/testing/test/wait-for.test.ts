import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { TIMING_SCALE_ENV, waitFor } from '../src/index.js';

describe('waitFor', () => {
  const original = process.env[TIMING_SCALE_ENV];
  afterEach(() => {
    if (original === undefined) delete process.env[TIMING_SCALE_ENV];
    else process.env[TIMING_SCALE_ENV] = original;
  });

  it('resolves with the first truthy value, polling through falsy values and errors', async () => {
    let calls = 0;
    const value = await waitFor(
      () => {
        calls++;
        if (calls === 1) throw new Error('not yet');
        return calls >= 3 ? { calls } : undefined;
      },
      { intervalMs: 1 },
    );
    assert.deepEqual(value, { calls: 3 });
  });

  it('awaits async predicates', async () => {
    let n = 0;
    const value = await waitFor(() => Promise.resolve(++n >= 2 && 'done'), { intervalMs: 1 });
    assert.equal(value, 'done');
  });

  it('rejects after the timeout with the message and the last value', async () => {
    await assert.rejects(
      waitFor(() => ({ ready: false }).ready, { timeoutMs: 50, message: 'the node to appear' }),
      /Timed out after 50 ms waiting for the node to appear \(last value: false\)/,
    );
  });

  it('rejects with the last error as message and cause when the predicate keeps throwing', async () => {
    const boom = new Error('connection refused');
    await assert.rejects(
      waitFor(
        () => {
          throw boom;
        },
        { timeoutMs: 30, message: 'the server' },
      ),
      (error: Error) => {
        assert.match(error.message, /waiting for the server \(last error: connection refused\)/);
        assert.equal(error.cause, boom);
        return true;
      },
    );
  });

  it('scales the timeout by ZK_TEST_TIMING_SCALE', async () => {
    process.env[TIMING_SCALE_ENV] = '0.5';
    const started = Date.now();
    await assert.rejects(
      waitFor(() => false, { timeoutMs: 200 }),
      /Timed out after 100 ms/,
    );
    assert.ok(Date.now() - started < 190, 'the scaled deadline, not the raw one, applied');
  });
});
