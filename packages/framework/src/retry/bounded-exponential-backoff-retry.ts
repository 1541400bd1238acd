import { ExponentialBackoffRetry } from './exponential-backoff-retry.js';
import { checkNonNegativeNumber } from '../checks/validate-number.js';
import { checkPolicyOptions } from './check-policy-options.js';

/** Options of {@link BoundedExponentialBackoffRetry}. */
export interface BoundedExponentialBackoffRetryOptions {
  /** The unit of sleep, as in ExponentialBackoffRetry. Required. */
  baseSleepMs: number;
  /** The longest any one sleep may be. Required. */
  maxSleepMs: number;
  /**
   * How many times to retry. Required. Any whole number up to `Number.MAX_SAFE_INTEGER`, never
   * capped: with a huge value this keeps retrying through a long outage at most `maxSleepMs`
   * apart.
   */
  maxRetries: number;
  /** Random numbers in [0, 1), for deterministic tests. Default: `Math.random`. */
  random?: (() => number) | undefined;
}

/**
 * ExponentialBackoffRetry with a required bound on each sleep (Curator's
 * `BoundedExponentialBackoffRetry`): `min(maxSleepMs, baseSleepMs * max(1, floor(random() *
 * 2^(n + 1))))` before retry `n`. The usual choice for riding out long outages:
 *
 * @example
 * // back off to at most 30 s apart, and keep retrying for as long as it takes
 * new BoundedExponentialBackoffRetry({ baseSleepMs: 500, maxSleepMs: 30_000, maxRetries: Number.MAX_SAFE_INTEGER })
 */
export class BoundedExponentialBackoffRetry extends ExponentialBackoffRetry {
  constructor(options: BoundedExponentialBackoffRetryOptions) {
    checkPolicyOptions(
      'BoundedExponentialBackoffRetry',
      options,
      '{ baseSleepMs, maxSleepMs, maxRetries }',
    );
    // Required here, where the parent would fall back to its default when it is missing.
    checkNonNegativeNumber('maxSleepMs', options.maxSleepMs);
    super(options);
  }
}
