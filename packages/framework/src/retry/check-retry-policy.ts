import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { describeValue } from '../errors/describe-value.js';
import type { RetryPolicy } from './retry-policy.js';

/**
 * Returns `policy` when it is a {@link RetryPolicy} (an object with `nextDelayMs`); anything
 * else throws. `name` is what the message calls it (`retryPolicy`, `promotedToLock.retryPolicy`).
 */
export function checkRetryPolicy(name: string, policy: unknown): RetryPolicy {
  if (typeof (policy as RetryPolicy | null)?.nextDelayMs !== 'function') {
    throw new InvalidArgumentError(
      `${name} must be a RetryPolicy (an object with nextDelayMs(attempt)), e.g. new ExponentialBackoffRetry({ baseSleepMs: 1000, maxRetries: 3 }); got ${describeValue(policy)}`,
    );
  }
  return policy as RetryPolicy;
}
