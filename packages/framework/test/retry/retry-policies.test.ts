import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { isInvalidArgument } from '../../src/errors/predicates.js';
import {
  ConnectionLossError,
  SessionExpiredError,
} from '../../src/errors/zookeeper-error-classes.js';
import { BoundedExponentialBackoffRetry } from '../../src/retry/bounded-exponential-backoff-retry.js';
import { ExponentialBackoffRetry } from '../../src/retry/exponential-backoff-retry.js';
import { RetryForever } from '../../src/retry/retry-forever.js';
import { RetryNTimes } from '../../src/retry/retry-n-times.js';
import { RetryOneTime } from '../../src/retry/retry-one-time.js';
import type { RetryPolicy } from '../../src/retry/retry-policy.js';
import { RetryUntilElapsed } from '../../src/retry/retry-until-elapsed.js';
import { SessionFailedRetryPolicy } from '../../src/retry/session-failed-retry-policy.js';

const loss = new ConnectionLossError();

/** The delays a policy gives for retry counts 0, 1, 2, ... until it stops (at most `limit`). */
function delays(policy: RetryPolicy, limit = 100, elapsedMs = 0): Array<number> {
  const result: number[] = [];
  for (let retryCount = 0; retryCount < limit; retryCount++) {
    const delayMs = policy.nextDelayMs({ retryCount, elapsedMs, error: loss });
    if (delayMs === undefined) break;
    result.push(delayMs);
  }
  return result;
}

const almostOne = () => 0.999999;

describe('ExponentialBackoffRetry', () => {
  it('sleeps base * max(1, floor(random * 2^(n+1))) like Curator', () => {
    const half = new ExponentialBackoffRetry({
      baseSleepMs: 100,
      maxRetries: 4,
      random: () => 0.5,
    });
    assert.deepEqual(delays(half), [100, 200, 400, 800]);
    const top = new ExponentialBackoffRetry({ baseSleepMs: 100, maxRetries: 4, random: almostOne });
    assert.deepEqual(delays(top), [100, 300, 700, 1500]);
    const bottom = new ExponentialBackoffRetry({
      baseSleepMs: 100,
      maxRetries: 4,
      random: () => 0,
    });
    assert.deepEqual(delays(bottom), [100, 100, 100, 100]);
  });

  it('follows the injected random source step by step', () => {
    const values = [0.3, 0.6, 0.2, 0.9];
    const policy = new ExponentialBackoffRetry({
      baseSleepMs: 10,
      maxRetries: 4,
      random: () => values.shift() ?? 0,
    });
    // floor(0.3*2)=0 -> 1, floor(0.6*4)=2, floor(0.2*8)=1, floor(0.9*16)=14
    assert.deepEqual(delays(policy), [10, 20, 10, 140]);
  });

  it('stops after maxRetries, and maxRetries 0 never retries', () => {
    assert.equal(delays(new ExponentialBackoffRetry({ baseSleepMs: 1, maxRetries: 3 })).length, 3);
    assert.deepEqual(delays(new ExponentialBackoffRetry({ baseSleepMs: 1, maxRetries: 0 })), []);
  });

  it('keeps every sleep within maxSleepMs', () => {
    const policy = new ExponentialBackoffRetry({
      baseSleepMs: 100,
      maxRetries: 10,
      maxSleepMs: 1000,
      random: almostOne,
    });
    assert.deepEqual(delays(policy), [100, 300, 700, 1000, 1000, 1000, 1000, 1000, 1000, 1000]);
  });

  it('does not cap maxRetries at 29 as Curator does', () => {
    const policy = new ExponentialBackoffRetry({ baseSleepMs: 1, maxRetries: 100, maxSleepMs: 5 });
    assert.equal(policy.maxRetries, 100);
    assert.equal(delays(policy, 1000).length, 100);
  });

  it('stays finite and bounded at huge retry counts (no overflow, Infinity or NaN)', () => {
    const unbounded = new ExponentialBackoffRetry({
      baseSleepMs: 1000,
      maxRetries: Number.MAX_SAFE_INTEGER,
      random: almostOne,
    });
    const bounded = new ExponentialBackoffRetry({
      baseSleepMs: 1000,
      maxRetries: Number.MAX_SAFE_INTEGER,
      maxSleepMs: 60_000,
      random: almostOne,
    });
    for (const retryCount of [29, 30, 31, 1000, 1e9, Number.MAX_SAFE_INTEGER - 1]) {
      const attempt = { retryCount, elapsedMs: 0, error: loss };
      const delay = unbounded.nextDelayMs(attempt);
      assert.ok(delay !== undefined && Number.isFinite(delay) && delay > 0, `count ${retryCount}`);
      assert.ok(delay <= 2_147_483_647);
      assert.equal(bounded.nextDelayMs(attempt), 60_000);
    }
    // The largest multiplier there can be: the exponent stops at 30.
    const top = () => 1 - Number.EPSILON;
    const small = new ExponentialBackoffRetry({ baseSleepMs: 1, maxRetries: 2e9, random: top });
    assert.equal(small.nextDelayMs({ retryCount: 1e9, elapsedMs: 0, error: loss }), 2 ** 30 - 1);
  });

  it('warns once, at construction, when huge retries meet the default maxSleepMs', () => {
    const warnings: string[] = [];
    const logger = { warn: (message: string) => warnings.push(message) };
    const policy = new ExponentialBackoffRetry({ baseSleepMs: 1000, maxRetries: 31, logger });
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /maxRetries is 31 and maxSleepMs is not set/);
    delays(policy, 40);
    assert.equal(warnings.length, 1);
    new ExponentialBackoffRetry({ baseSleepMs: 1000, maxRetries: 30, logger });
    new ExponentialBackoffRetry({ baseSleepMs: 1000, maxRetries: 1e9, maxSleepMs: 30_000, logger });
    assert.equal(warnings.length, 1);
  });

  it('rejects invalid options, naming the option', () => {
    const cases: Array<[() => unknown, string]> = [
      [() => new ExponentialBackoffRetry({ baseSleepMs: -1, maxRetries: 3 }), 'baseSleepMs'],
      [
        () => new ExponentialBackoffRetry({ baseSleepMs: Number.NaN, maxRetries: 3 }),
        'baseSleepMs',
      ],
      [() => new ExponentialBackoffRetry({ baseSleepMs: 1, maxRetries: -1 }), 'maxRetries'],
      [() => new ExponentialBackoffRetry({ baseSleepMs: 1, maxRetries: Infinity }), 'maxRetries'],
      [() => new ExponentialBackoffRetry({ baseSleepMs: 1, maxRetries: 2.5 }), 'maxRetries'],
      [
        () => new ExponentialBackoffRetry({ baseSleepMs: 1, maxRetries: 3, maxSleepMs: -5 }),
        'maxSleepMs',
      ],
    ];
    for (const [make, option] of cases) {
      assert.throws(
        make,
        (err: unknown) =>
          isInvalidArgument(err) && (err as Error).message.includes(`${option} must be`),
      );
    }
  });
});

describe('BoundedExponentialBackoffRetry', () => {
  it('caps each sleep at maxSleepMs', () => {
    const policy = new BoundedExponentialBackoffRetry({
      baseSleepMs: 100,
      maxSleepMs: 500,
      maxRetries: 6,
      random: almostOne,
    });
    assert.deepEqual(delays(policy), [100, 300, 500, 500, 500, 500]);
  });

  it('keeps retrying with bounded sleeps through a long outage with a huge maxRetries', () => {
    const policy = new BoundedExponentialBackoffRetry({
      baseSleepMs: 500,
      maxSleepMs: 30_000,
      maxRetries: Number.MAX_SAFE_INTEGER,
    });
    for (const retryCount of [0, 10, 1000, 1e9, 1e15]) {
      const delay = policy.nextDelayMs({ retryCount, elapsedMs: 1e12, error: loss });
      assert.ok(delay !== undefined && delay >= 500 && delay <= 30_000);
    }
  });

  it('requires maxSleepMs', () => {
    assert.throws(
      () =>
        new BoundedExponentialBackoffRetry({ baseSleepMs: 1, maxRetries: 3 } as unknown as {
          baseSleepMs: number;
          maxSleepMs: number;
          maxRetries: number;
        }),
      (err: unknown) => isInvalidArgument(err) && (err as Error).message.includes('maxSleepMs'),
    );
  });
});

describe('RetryNTimes and RetryOneTime', () => {
  it('RetryNTimes sleeps the same time before each of n retries', () => {
    assert.deepEqual(
      delays(new RetryNTimes({ n: 3, sleepBetweenRetriesMs: 250 })),
      [250, 250, 250],
    );
    assert.deepEqual(delays(new RetryNTimes({ n: 0, sleepBetweenRetriesMs: 250 })), []);
  });

  it('RetryOneTime retries once', () => {
    assert.deepEqual(delays(new RetryOneTime({ sleepBetweenRetryMs: 40 })), [40]);
  });

  it('validate their options under their own names', () => {
    assert.throws(
      () => new RetryNTimes({ n: -1, sleepBetweenRetriesMs: 1 }),
      (err: unknown) => (err as Error).message.includes('n must be'),
    );
    assert.throws(
      () => new RetryNTimes({ n: 1, sleepBetweenRetriesMs: Infinity }),
      (err: unknown) => (err as Error).message.includes('sleepBetweenRetriesMs must be'),
    );
    assert.throws(
      () => new RetryOneTime({ sleepBetweenRetryMs: -1 }),
      (err: unknown) => (err as Error).message.includes('sleepBetweenRetryMs must be'),
    );
  });
});

describe('RetryUntilElapsed', () => {
  it('retries while less than maxElapsedTimeMs has passed, whatever the count', () => {
    const policy = new RetryUntilElapsed({ maxElapsedTimeMs: 1000, sleepBetweenRetriesMs: 100 });
    assert.equal(policy.nextDelayMs({ retryCount: 0, elapsedMs: 0, error: loss }), 100);
    assert.equal(policy.nextDelayMs({ retryCount: 1e9, elapsedMs: 999, error: loss }), 100);
    assert.equal(policy.nextDelayMs({ retryCount: 1, elapsedMs: 1000, error: loss }), undefined);
    assert.equal(policy.nextDelayMs({ retryCount: 1, elapsedMs: 5000, error: loss }), undefined);
  });

  it('rejects invalid options', () => {
    assert.throws(
      () => new RetryUntilElapsed({ maxElapsedTimeMs: -1, sleepBetweenRetriesMs: 1 }),
      (err: unknown) => (err as Error).message.includes('maxElapsedTimeMs must be'),
    );
  });
});

describe('RetryForever', () => {
  it('never stops', () => {
    const policy: RetryPolicy = new RetryForever({ retryIntervalMs: 1000 });
    for (const retryCount of [0, 1e9, Number.MAX_SAFE_INTEGER]) {
      assert.equal(policy.nextDelayMs({ retryCount, elapsedMs: 1e12, error: loss }), 1000);
    }
    assert.equal(delays(policy, 500).length, 500);
  });

  it('requires a positive interval, as Curator does', () => {
    for (const retryIntervalMs of [0, -1, Number.NaN, Infinity]) {
      assert.throws(() => new RetryForever({ retryIntervalMs }), isInvalidArgument);
    }
  });
});

describe('SessionFailedRetryPolicy', () => {
  it('stops on SESSION_EXPIRED and otherwise defers to the wrapped policy', () => {
    const policy = new SessionFailedRetryPolicy(
      new RetryNTimes({ n: 2, sleepBetweenRetriesMs: 7 }),
    );
    const expired = new SessionExpiredError();
    assert.equal(policy.nextDelayMs({ retryCount: 0, elapsedMs: 0, error: expired }), undefined);
    assert.equal(policy.nextDelayMs({ retryCount: 0, elapsedMs: 0, error: loss }), 7);
    assert.equal(policy.nextDelayMs({ retryCount: 2, elapsedMs: 0, error: loss }), undefined);
  });
});
