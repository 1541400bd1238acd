import { checkCount, checkNonNegativeNumber } from '../checks/validate-number.js';
import type { RetryAttempt, RetryPolicy } from './retry-policy.js';
import { checkPolicyOptions } from './check-policy-options.js';

/** Options of {@link RetryNTimes}. */
export interface RetryNTimesOptions {
  /** How many times to retry after the first failure (0: never). Required. */
  n: number;
  /** The fixed sleep before every retry. Required. */
  sleepBetweenRetriesMs: number;
}

/**
 * Retries up to `n` times, sleeping the same `sleepBetweenRetriesMs` before each (Curator's
 * `RetryNTimes`).
 *
 * @example new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 200 })
 */
export class RetryNTimes implements RetryPolicy {
  /** How many retries follow the first failed attempt. */
  readonly n: number;
  /** The sleep before every retry, in milliseconds. */
  readonly sleepBetweenRetriesMs: number;

  constructor(options: RetryNTimesOptions) {
    checkPolicyOptions('RetryNTimes', options, '{ n, sleepBetweenRetriesMs }');
    checkCount('n', options.n);
    checkNonNegativeNumber('sleepBetweenRetriesMs', options.sleepBetweenRetriesMs);
    this.n = options.n;
    this.sleepBetweenRetriesMs = options.sleepBetweenRetriesMs;
  }

  nextDelayMs(attempt: RetryAttempt): number | undefined {
    return attempt.retryCount < this.n ? this.sleepBetweenRetriesMs : undefined;
  }
}
