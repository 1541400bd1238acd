import { checkNonNegativeNumber } from '../checks/validate-number.js';
import type { RetryAttempt, RetryPolicy } from './retry-policy.js';
import { checkPolicyOptions } from './check-policy-options.js';

/** Options of {@link RetryUntilElapsed}. */
export interface RetryUntilElapsedOptions {
  /** No retry starts once this long has passed since the first attempt. Required. */
  maxElapsedTimeMs: number;
  /** The fixed sleep before every retry. Required. */
  sleepBetweenRetriesMs: number;
}

/**
 * Retries, `sleepBetweenRetriesMs` apart, while less than `maxElapsedTimeMs` has passed since
 * the first attempt (Curator's `RetryUntilElapsed`). As in Curator, the last sleep is not
 * shortened, so the whole operation may take up to about `maxElapsedTimeMs` plus one sleep and
 * one attempt.
 *
 * @example new RetryUntilElapsed({ maxElapsedTimeMs: 60_000, sleepBetweenRetriesMs: 1000 })
 */
export class RetryUntilElapsed implements RetryPolicy {
  /** No retry starts once this many milliseconds have passed since the first attempt. */
  readonly maxElapsedTimeMs: number;
  /** The sleep before every retry, in milliseconds. */
  readonly sleepBetweenRetriesMs: number;

  constructor(options: RetryUntilElapsedOptions) {
    checkPolicyOptions('RetryUntilElapsed', options, '{ maxElapsedTimeMs, sleepBetweenRetriesMs }');
    checkNonNegativeNumber('maxElapsedTimeMs', options.maxElapsedTimeMs);
    checkNonNegativeNumber('sleepBetweenRetriesMs', options.sleepBetweenRetriesMs);
    this.maxElapsedTimeMs = options.maxElapsedTimeMs;
    this.sleepBetweenRetriesMs = options.sleepBetweenRetriesMs;
  }

  nextDelayMs(attempt: RetryAttempt): number | undefined {
    return attempt.elapsedMs < this.maxElapsedTimeMs ? this.sleepBetweenRetriesMs : undefined;
  }
}
