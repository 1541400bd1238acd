import { isSessionExpired } from '../errors/predicates.js';
import type { RetryAttempt, RetryPolicy } from './retry-policy.js';
import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { describeValue } from '../errors/describe-value.js';

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
    if (typeof (delegate as { nextDelayMs?: unknown } | null)?.nextDelayMs !== 'function') {
      throw new InvalidArgumentError(
        `SessionFailedRetryPolicy needs the policy it wraps, e.g. new SessionFailedRetryPolicy(new RetryNTimes({ n: 3, sleepBetweenRetriesMs: 1000 })); got ${describeValue(delegate)}`,
      );
    }
    this.delegate = delegate;
  }

  nextDelayMs(attempt: RetryAttempt): number | undefined {
    if (isSessionExpired(attempt.error)) return undefined;
    return this.delegate.nextDelayMs(attempt);
  }
}
