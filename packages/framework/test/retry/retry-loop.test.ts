import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  ConnectionLossError,
  NoNodeError,
  OperationTimeoutError,
  SessionExpiredError,
} from '../../src/errors/zookeeper-error-classes.js';
import { errorFromCode } from '../../src/errors/error-from-code.js';
import { isInvalidArgument } from '../../src/errors/predicates.js';
import { retryLoop } from '../../src/retry/retry-loop.js';
import type { RetryInfo } from '../../src/retry/retry-loop.js';
import { RetryNTimes } from '../../src/retry/retry-n-times.js';
import type { RetryAttempt, RetryPolicy } from '../../src/retry/retry-policy.js';
import { RetryUntilElapsed } from '../../src/retry/retry-until-elapsed.js';

/** A clock that only moves when the fake sleep sleeps, and a record of the sleeps. */
function fakeTime() {
  let nowMs = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => nowMs,
    sleep: (ms: number) => {
      sleeps.push(ms);
      nowMs += ms;
      return Promise.resolve();
    },
  };
}

/** An operation failing with the given errors in turn, then returning `result`. */
function failing<T>(errors: Error[], result: T) {
  const attempts: number[] = [];
  return {
    attempts,
    operation: (attempt: number) => {
      attempts.push(attempt);
      const error = errors.shift();
      return error === undefined ? Promise.resolve(result) : Promise.reject(error);
    },
  };
}

describe('retryLoop', () => {
  it('returns the first success without sleeping', async () => {
    const time = fakeTime();
    const policy = new RetryNTimes({ n: 3, sleepBetweenRetriesMs: 10 });
    assert.equal(await retryLoop(() => Promise.resolve('ok'), { policy, ...time }), 'ok');
    assert.deepEqual(time.sleeps, []);
  });

  it('retries each retryable code, sleeping as the policy says, and passes the attempt number', async () => {
    const time = fakeTime();
    const { operation, attempts } = failing(
      [
        new ConnectionLossError(),
        new OperationTimeoutError(),
        errorFromCode(-118),
        new SessionExpiredError(),
      ],
      'done',
    );
    const policy = new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 25 });
    assert.equal(await retryLoop(operation, { policy, ...time }), 'done');
    assert.deepEqual(attempts, [0, 1, 2, 3, 4]);
    assert.deepEqual(time.sleeps, [25, 25, 25, 25]);
  });

  it('rethrows a non-retryable error at once, unchanged', async () => {
    const time = fakeTime();
    const noNode = new NoNodeError({ path: '/a' });
    const { operation, attempts } = failing([noNode], 'never');
    const policy = new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 25 });
    await assert.rejects(retryLoop(operation, { policy, ...time }), (err) => err === noNode);
    assert.deepEqual(attempts, [0]);
    assert.deepEqual(time.sleeps, []);
  });

  it('treats errors that are not ZooKeeper errors as not retryable', async () => {
    const plain = new Error('bug');
    const { operation, attempts } = failing([plain], 'never');
    const policy = new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 0 });
    await assert.rejects(retryLoop(operation, { policy, ...fakeTime() }), (err) => err === plain);
    assert.deepEqual(attempts, [0]);
  });

  it('rethrows the last error, unchanged, when the policy stops', async () => {
    const time = fakeTime();
    const errors = [
      new ConnectionLossError(),
      new ConnectionLossError(),
      new ConnectionLossError(),
    ];
    const last = errors[2];
    const { operation, attempts } = failing([...errors], 'never');
    const policy = new RetryNTimes({ n: 2, sleepBetweenRetriesMs: 5 });
    await assert.rejects(retryLoop(operation, { policy, ...time }), (err) => err === last);
    assert.deepEqual(attempts, [0, 1, 2]);
    assert.deepEqual(time.sleeps, [5, 5]);
  });

  it('gives the policy the retry count, the elapsed time and the error', async () => {
    const seen: RetryAttempt[] = [];
    const policy: RetryPolicy = {
      nextDelayMs: (attempt) => {
        seen.push(attempt);
        return attempt.retryCount < 2 ? 100 : undefined;
      },
    };
    const errors = [
      new ConnectionLossError(),
      new ConnectionLossError(),
      new ConnectionLossError(),
    ];
    const { operation } = failing([...errors], 'never');
    await assert.rejects(retryLoop(operation, { policy, ...fakeTime() }));
    assert.deepEqual(
      seen.map(({ retryCount, elapsedMs, error }) => [retryCount, elapsedMs, error]),
      [
        [0, 0, errors[0]],
        [1, 100, errors[1]],
        [2, 200, errors[2]],
      ],
    );
  });

  it('stops by elapsed time with RetryUntilElapsed', async () => {
    const time = fakeTime();
    const errors = Array.from({ length: 100 }, () => new ConnectionLossError());
    const { operation, attempts } = failing(errors, 'never');
    const policy = new RetryUntilElapsed({ maxElapsedTimeMs: 1000, sleepBetweenRetriesMs: 300 });
    await assert.rejects(retryLoop(operation, { policy, ...time }));
    // Sleeps start at elapsed 0, 300, 600, 900; at 1200 the policy stops.
    assert.deepEqual(time.sleeps, [300, 300, 300, 300]);
    assert.equal(attempts.length, 5);
  });

  it('calls onRetry before each sleep', async () => {
    const infos: RetryInfo[] = [];
    const errors = [new ConnectionLossError(), new SessionExpiredError()];
    const { operation } = failing([...errors], 'ok');
    const policy = new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 50 });
    await retryLoop(operation, { policy, ...fakeTime(), onRetry: (info) => infos.push(info) });
    assert.deepEqual(infos, [
      { retryCount: 0, delayMs: 50, elapsedMs: 0, error: errors[0] },
      { retryCount: 1, delayMs: 50, elapsedMs: 50, error: errors[1] },
    ]);
  });

  it('uses a custom isRetryable', async () => {
    const custom = new Error('try again');
    const { operation, attempts } = failing([custom, custom], 'ok');
    const policy = new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 0 });
    const result = await retryLoop(operation, {
      policy,
      ...fakeTime(),
      isRetryable: (err) => err === custom,
    });
    assert.equal(result, 'ok');
    assert.equal(attempts.length, 3);
  });

  it('rejects a policy that returns an unusable delay, keeping the error as cause', async () => {
    for (const bad of [Number.NaN, -1, Infinity]) {
      const loss = new ConnectionLossError();
      const { operation } = failing([loss], 'never');
      const policy: RetryPolicy = { nextDelayMs: () => bad };
      await assert.rejects(
        retryLoop(operation, { policy, ...fakeTime() }),
        (err: unknown) => isInvalidArgument(err) && (err as Error).cause === loss,
      );
    }
  });

  it('rejects with the abort reason before the first attempt when already aborted', async () => {
    const reason = new Error('shutting down');
    const { operation, attempts } = failing([], 'never');
    const policy = new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 0 });
    await assert.rejects(
      retryLoop(operation, { policy, signal: AbortSignal.abort(reason) }),
      (err) => err === reason,
    );
    assert.deepEqual(attempts, []);
  });

  it('abort during a long sleep rejects at once with the reason', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const errors = [new ConnectionLossError()];
    const { operation } = failing(errors, 'never');
    const policy = new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 60_000 });
    const startMs = performance.now();
    await assert.rejects(
      retryLoop(operation, {
        policy,
        signal: controller.signal,
        // Abort once the sleep has begun: after onRetry, on a later turn of the event loop.
        onRetry: () => setImmediate(() => controller.abort(reason)),
      }),
      (err) => err === reason,
    );
    assert.ok(performance.now() - startMs < 5000);
  });

  it('abort during a custom sleep that ignores the signal still rejects at once', async () => {
    const controller = new AbortController();
    const { operation } = failing([new ConnectionLossError()], 'never');
    const policy = new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 10 });
    const result = retryLoop(operation, {
      policy,
      signal: controller.signal,
      sleep: () => new Promise<void>(() => undefined),
      onRetry: () => setImmediate(() => controller.abort()),
    });
    await assert.rejects(result, (err: unknown) => (err as Error).name === 'AbortError');
  });

  it('abort during an attempt that never settles rejects at once', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const policy = new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 0 });
    const result = retryLoop(() => new Promise<never>(() => undefined), {
      policy,
      signal: controller.signal,
    });
    setImmediate(() => controller.abort(reason));
    await assert.rejects(result, (err) => err === reason);
  });
});
