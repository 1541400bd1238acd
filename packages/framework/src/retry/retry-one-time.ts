import { checkNonNegativeNumber } from '../checks/validate-number.js';
import { RetryNTimes } from './retry-n-times.js';
import { checkPolicyOptions } from './check-policy-options.js';

/** Options of {@link RetryOneTime}. */
export interface RetryOneTimeOptions {
  /** The sleep before the single retry. Required. */
  sleepBetweenRetryMs: number;
}

/**
 * Retries once, after `sleepBetweenRetryMs` (Curator's `RetryOneTime`).
 *
 * @example new RetryOneTime({ sleepBetweenRetryMs: 100 })
 */
export class RetryOneTime extends RetryNTimes {
  constructor(options: RetryOneTimeOptions) {
    checkPolicyOptions('RetryOneTime', options, '{ sleepBetweenRetryMs }');
    // Validate under this option's own name before the parent sees it as sleepBetweenRetriesMs.
    checkNonNegativeNumber('sleepBetweenRetryMs', options.sleepBetweenRetryMs);
    super({ n: 1, sleepBetweenRetriesMs: options.sleepBetweenRetryMs });
  }
}
