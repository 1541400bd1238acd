import { isSessionExpired } from '../errors/predicates.js';
import type { RetryAttempt, RetryPolicy } from './retry-policy.js';

/**
 * Wraps another policy and stops at once on SESSION_EXPIRED (Curator's
 * `SessionFailedRetryPolicy`); every other retryable error is left to the wrapped policy. Use it
 * where work must not silently continue in a new session, e.g. while holding ephemeral state.
 *
 * @example new SessionFailedRetryPolicy(new ExponentialBackoffRetry({ baseSleepMs: 1000, maxRetries: 3 }))
 */
export class SessionFailedRetryPolicy implements RetryPolicy {
  /** The wrapped policy that decides every retry except on SESSION_EXPIRED. */
  readonly delegate: RetryPolicy;

  constructor(delegate: RetryPolicy) {
    this.delegate = delegate;
  }

  nextDelayMs(attempt: RetryAttempt): number | undefined {
    if (isSessionExpired(attempt.error)) return undefined;
    return this.delegate.nextDelayMs(attempt);
  }
}
