import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { describeValue } from '../errors/describe-value.js';

/**
 * A policy constructor called without its options object (`new RetryNTimes()` from
 * JavaScript) fails here with a message naming what it needs, not with a TypeError from
 * reading a property of undefined.
 */
export function checkPolicyOptions(policy: string, options: unknown, shape: string): void {
  if (typeof options === 'object' && options !== null) return;
  throw new InvalidArgumentError(
    `${policy} needs an options object ${shape}, got ${describeValue(options)}`,
  );
}
