import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { checkNonNegativeNumber } from '../checks/validate-number.js';
import type { RetryPolicy } from './retry-policy.js';
import { checkPolicyOptions } from './check-policy-options.js';

/** Options of {@link RetryForever}. */
export interface RetryForeverOptions {
  /** The fixed sleep before every retry; must be above 0. Required. */
  retryIntervalMs: number;
}

/**
 * Retries without end, `retryIntervalMs` apart (Curator's `RetryForever`). For services that
 * must ride out outages of any length; stop it with the retry loop's AbortSignal or by closing
 * the client. Like Curator, the interval must be positive: a zero interval would spin against a
 * dead server.
 *
 * @example new RetryForever({ retryIntervalMs: 5000 })
 */
export class RetryForever implements RetryPolicy {
  /** The sleep before every retry, in milliseconds. */
  readonly retryIntervalMs: number;

  constructor(options: RetryForeverOptions) {
    checkPolicyOptions('RetryForever', options, '{ retryIntervalMs }');
    checkNonNegativeNumber('retryIntervalMs', options.retryIntervalMs);
    if (options.retryIntervalMs === 0) {
      throw new InvalidArgumentError(
        'retryIntervalMs must be above 0: RetryForever with no pause would spin against a dead server',
      );
    }
    this.retryIntervalMs = options.retryIntervalMs;
  }

  nextDelayMs(): number {
    return this.retryIntervalMs;
  }
}
