import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { ConnectionLossError, NoNodeError } from '../../src/errors/zookeeper-error-classes.js';
import { isInvalidArgument } from '../../src/errors/predicates.js';
import { BackgroundRetry } from '../../src/retry/background-retry.js';
import type { RetryInfo } from '../../src/retry/retry-loop.js';
import type { RetryAttempt, RetryPolicy } from '../../src/retry/retry-policy.js';
import { RetryNTimes } from '../../src/retry/retry-n-times.js';

interface PendingSleep {
  readonly ms: number;
  readonly signal: AbortSignal;
  readonly fire: () => void;
  fired: boolean;
}

/** A sleep the test fires by hand, and a clock the test moves; sleeping moves it by `ms`. */
function fakeTime() {
  let nowMs = 0;
  const sleeps: PendingSleep[] = [];
  return {
    sleeps,
    /** The sleeps not cancelled and not yet fired. */
    pending: () => sleeps.filter((each) => !each.signal.aborted && !each.fired),
    advance: (ms: number) => {
      nowMs += ms;
    },
    now: () => nowMs,
    sleep: (ms: number, signal: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        const entry: PendingSleep = {
          ms,
          signal,
          fired: false,
          fire: () => {
            entry.fired = true;
            nowMs += ms;
            resolve();
          },
        };
        sleeps.push(entry);
      }),
  };
}

/** The timers that keep the process alive (unref'd ones are not listed). */
function activeTimeouts(): number {
  return process.getActiveResourcesInfo().filter((each) => each === 'Timeout').length;
}

/** Lets every promise continuation that is already due run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

/** A task that fails with the given errors in turn, then succeeds; counts its runs. */
function scripted(errors: (Error | undefined)[]) {
  const runs: AbortSignal[] = [];
  return {
    runs,
    task: (signal: AbortSignal) => {
      runs.push(signal);
      const error = errors.shift();
      return error === undefined ? Promise.resolve() : Promise.reject(error);
    },
  };
}

/** A policy that records what it was asked and answers with the given delays. */
function recordingPolicy(delays: (number | undefined)[]) {
  const asked: RetryAttempt[] = [];
  const policy: RetryPolicy = {
    nextDelayMs: (attempt) => {
      asked.push(attempt);
      return delays.shift();
    },
  };
  return { asked, policy };
}

describe('BackgroundRetry', () => {
  it('runs at once on kick() and does not wait after a success', async () => {
    const time = fakeTime();
    const { task, runs } = scripted([]);
    const retry = new BackgroundRetry(task, {
      policy: new RetryNTimes({ n: 3, sleepBetweenRetriesMs: 10 }),
      ...time,
    });
    retry.kick();
    await settle();
    assert.equal(runs.length, 1);
    assert.equal(time.sleeps.length, 0);
    assert.equal(retry.waiting, false);
  });

  it('waits the delays the policy gives, counting failures and elapsed time since the first', async () => {
    const time = fakeTime();
    const { task, runs } = scripted([new ConnectionLossError(), new ConnectionLossError()]);
    const { asked, policy } = recordingPolicy([100, 200]);
    const infos: RetryInfo[] = [];
    const retry = new BackgroundRetry(task, {
      policy,
      onRetry: (info) => infos.push(info),
      ...time,
    });
    retry.kick();
    await settle();
    assert.deepEqual(
      time.pending().map((each) => each.ms),
      [100],
    );
    assert.equal(retry.failures, 1);
    time.pending()[0]?.fire();
    await settle();
    assert.equal(runs.length, 2);
    assert.deepEqual(
      time.pending().map((each) => each.ms),
      [200],
    );
    time.pending()[0]?.fire();
    await settle();
    assert.equal(runs.length, 3);
    assert.equal(retry.failures, 0, 'a success starts the count again');
    assert.deepEqual(
      asked.map(({ retryCount, elapsedMs }) => ({ retryCount, elapsedMs })),
      [
        { retryCount: 0, elapsedMs: 0 },
        { retryCount: 1, elapsedMs: 100 },
      ],
    );
    assert.deepEqual(
      infos.map(({ retryCount, delayMs }) => ({ retryCount, delayMs })),
      [
        { retryCount: 0, delayMs: 100 },
        { retryCount: 1, delayMs: 200 },
      ],
    );
  });

  it('counts again from zero after a success', async () => {
    const time = fakeTime();
    const { task } = scripted([new ConnectionLossError(), undefined, new ConnectionLossError()]);
    const { asked, policy } = recordingPolicy([5, 5]);
    const retry = new BackgroundRetry(task, { policy, ...time });
    retry.kick();
    await settle();
    time.pending()[0]?.fire();
    await settle();
    time.advance(1000);
    retry.kick();
    await settle();
    assert.deepEqual(
      asked.map(({ retryCount, elapsedMs }) => ({ retryCount, elapsedMs })),
      [
        { retryCount: 0, elapsedMs: 0 },
        { retryCount: 0, elapsedMs: 0 },
      ],
    );
  });

  it('reset() forgets the failures counted so far', async () => {
    const time = fakeTime();
    const { task } = scripted([new ConnectionLossError(), new ConnectionLossError()]);
    const { asked, policy } = recordingPolicy([5, 5]);
    const retry = new BackgroundRetry(task, { policy, ...time });
    retry.kick();
    await settle();
    retry.reset();
    assert.equal(retry.failures, 0);
    time.pending()[0]?.fire();
    await settle();
    assert.deepEqual(
      asked.map((each) => each.retryCount),
      [0, 0],
    );
  });

  it('kick() during a wait cancels it and runs at once, keeping a single wait', async () => {
    const time = fakeTime();
    const { task, runs } = scripted([new ConnectionLossError(), new ConnectionLossError()]);
    const retry = new BackgroundRetry(task, {
      policy: new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 1000 }),
      ...time,
    });
    retry.kick();
    await settle();
    const first = time.sleeps[0];
    retry.kick();
    await settle();
    assert.equal(first?.signal.aborted, true, 'the first wait is cancelled');
    assert.equal(runs.length, 2);
    assert.equal(time.pending().length, 1, 'never two waits at once');
    first?.fire();
    await settle();
    assert.equal(runs.length, 2, 'a cancelled wait that fires late does not run the task');
  });

  it('a kick during a run runs once more right after it, without waiting the delay', async () => {
    const time = fakeTime();
    let fail: ((error: Error) => void) | undefined;
    let runs = 0;
    const task = () => {
      runs++;
      return runs === 1
        ? new Promise<void>((_resolve, reject) => {
            fail = reject;
          })
        : Promise.resolve();
    };
    const retry = new BackgroundRetry(task, {
      policy: new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 1000 }),
      ...time,
    });
    retry.kick();
    retry.kick();
    retry.kick();
    assert.equal(runs, 1, 'never two runs at once');
    assert.equal(retry.running, true);
    fail?.(new ConnectionLossError());
    await settle();
    assert.equal(runs, 2, 'the kicks coalesce into one more run');
    assert.equal(time.sleeps.length, 0);
    assert.equal(retry.failures, 0);
  });

  it('reports a non-retryable error to onError and then idles until kicked', async () => {
    const time = fakeTime();
    const noNode = new NoNodeError({ path: '/a' });
    const { task, runs } = scripted([noNode]);
    const errors: unknown[] = [];
    const retry = new BackgroundRetry(task, {
      policy: new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 10 }),
      onError: (error) => errors.push(error),
      ...time,
    });
    retry.kick();
    await settle();
    assert.deepEqual(errors, [noNode]);
    assert.equal(time.sleeps.length, 0);
    retry.kick();
    await settle();
    assert.equal(runs.length, 2);
  });

  it('a kick during a run that fails for good still runs again, after reporting', async () => {
    const time = fakeTime();
    const noNode = new NoNodeError({ path: '/a' });
    let fail: ((error: Error) => void) | undefined;
    let runs = 0;
    const task = () => {
      runs++;
      return runs === 1
        ? new Promise<void>((_resolve, reject) => {
            fail = reject;
          })
        : Promise.resolve();
    };
    const errors: unknown[] = [];
    const retry = new BackgroundRetry(task, {
      policy: new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 10 }),
      onError: (error) => errors.push(error),
      ...time,
    });
    retry.kick();
    retry.kick();
    fail?.(noNode);
    await settle();
    assert.deepEqual(errors, [noNode]);
    assert.equal(runs, 2);
    assert.equal(time.sleeps.length, 0);
  });

  it('reports the last error when the policy stops', async () => {
    const time = fakeTime();
    const last = new ConnectionLossError();
    const { task, runs } = scripted([new ConnectionLossError(), last]);
    const errors: unknown[] = [];
    const retry = new BackgroundRetry(task, {
      policy: new RetryNTimes({ n: 1, sleepBetweenRetriesMs: 10 }),
      onError: (error) => errors.push(error),
      ...time,
    });
    retry.kick();
    await settle();
    time.pending()[0]?.fire();
    await settle();
    assert.equal(runs.length, 2);
    assert.deepEqual(errors, [last]);
    assert.equal(retry.waiting, false);
  });

  it('uses the given isRetryable to decide what is retried', async () => {
    const time = fakeTime();
    const custom = new Error('try later');
    const { task, runs } = scripted([custom]);
    const retry = new BackgroundRetry(task, {
      policy: new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 7 }),
      isRetryable: (error) => error === custom,
      ...time,
    });
    retry.kick();
    await settle();
    assert.deepEqual(
      time.pending().map((each) => each.ms),
      [7],
    );
    time.pending()[0]?.fire();
    await settle();
    assert.equal(runs.length, 2);
  });

  it('a policy returning a bad delay, or onRetry throwing, ends the retrying through onError', async () => {
    const time = fakeTime();
    const errors: unknown[] = [];
    const bad: RetryPolicy = { nextDelayMs: () => Number.NaN };
    const first = new BackgroundRetry(scripted([new ConnectionLossError()]).task, {
      policy: bad,
      onError: (error) => errors.push(error),
      ...time,
    });
    first.kick();
    const thrown = new Error('logger broke');
    const second = new BackgroundRetry(scripted([new ConnectionLossError()]).task, {
      policy: new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 1 }),
      onRetry: () => {
        throw thrown;
      },
      onError: (error) => errors.push(error),
      ...time,
    });
    second.kick();
    await settle();
    assert.equal(errors.length, 2);
    assert.ok(isInvalidArgument(errors[0]));
    assert.equal(errors[1], thrown);
    assert.equal(time.sleeps.length, 0);
  });

  it('close() cancels the wait, aborts the running task and ignores its outcome', async () => {
    const time = fakeTime();
    const errors: unknown[] = [];
    const { task, runs } = scripted([new ConnectionLossError()]);
    const retry = new BackgroundRetry(task, {
      policy: new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 10 }),
      onError: (error) => errors.push(error),
      ...time,
    });
    retry.kick();
    await settle();
    const wait = time.sleeps[0];
    retry.close();
    retry.close();
    assert.equal(wait?.signal.aborted, true);
    assert.equal(runs[0]?.aborted, true, 'the task sees the close');
    retry.kick();
    await settle();
    assert.equal(runs.length, 1, 'kick after close does nothing');
    assert.equal(retry.closed, true);

    let fail: ((error: Error) => void) | undefined;
    const inFlight = new BackgroundRetry(
      () =>
        new Promise<void>((_resolve, reject) => {
          fail = reject;
        }),
      {
        policy: new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 10 }),
        onError: (error) => errors.push(error),
        ...time,
      },
    );
    inFlight.kick();
    inFlight.close();
    fail?.(new NoNodeError({ path: '/b' }));
    await settle();
    assert.deepEqual(errors, [], 'nothing is reported after close');
    assert.equal(time.sleeps.length, 1, 'and nothing is scheduled');
  });

  it('closes when its signal aborts, also when already aborted', async () => {
    const time = fakeTime();
    const controller = new AbortController();
    const { task, runs } = scripted([new ConnectionLossError()]);
    const retry = new BackgroundRetry(task, {
      policy: new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 10 }),
      signal: controller.signal,
      ...time,
    });
    retry.kick();
    await settle();
    controller.abort();
    assert.equal(retry.closed, true);
    assert.equal(time.sleeps[0]?.signal.aborted, true);
    const early = new BackgroundRetry(task, {
      policy: new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 10 }),
      signal: AbortSignal.abort(),
      ...time,
    });
    early.kick();
    await settle();
    assert.equal(runs.length, 1);
  });

  it("the default sleep is an unref'd timer that retries after the delay", async () => {
    const { task, runs } = scripted([new ConnectionLossError()]);
    const retry = new BackgroundRetry(task, {
      policy: new RetryNTimes({ n: 1, sleepBetweenRetriesMs: 5 }),
    });
    const before = activeTimeouts();
    retry.kick();
    await settle();
    assert.equal(retry.waiting, true);
    const during = activeTimeouts();
    assert.equal(during, before, "an unref'd timer is not an active resource");
    const deadline = Date.now() + 5000;
    while (runs.length < 2 && Date.now() < deadline)
      await new Promise((resolve) => setImmediate(resolve));
    assert.equal(runs.length, 2);
    retry.close();
  });

  it('with unref: false the timer keeps the process alive while it waits', async () => {
    const { task } = scripted([new ConnectionLossError()]);
    const retry = new BackgroundRetry(task, {
      policy: new RetryNTimes({ n: 1, sleepBetweenRetriesMs: 60_000 }),
      unref: false,
    });
    const before = activeTimeouts();
    retry.kick();
    await settle();
    assert.equal(retry.waiting, true);
    assert.equal(activeTimeouts(), before + 1);
    retry.close();
    assert.equal(activeTimeouts(), before, 'close() clears the timer');
  });
});
