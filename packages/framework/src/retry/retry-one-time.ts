import { validateNonNegativeNumber } from '../checks/validate-number.js';
import { RetryNTimes } from './retry-n-times.js';
import { validatePolicyOptions } from './validate-policy-options.js';

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
    validatePolicyOptions('RetryOneTime', options, '{ sleepBetweenRetryMs }');
    // Validate under this option's own name before the parent sees it as sleepBetweenRetriesMs.
    validateNonNegativeNumber('sleepBetweenRetryMs', options.sleepBetweenRetryMs);
    super({ n: 1, sleepBetweenRetriesMs: options.sleepBetweenRetryMs });
  }
}
