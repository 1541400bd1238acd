// The numeric validators, kept together because they share one message shape and one helper:
// `<name> must be <rule>; got <value>`. Each fails fast with an InvalidArgumentError naming the
// option, before anything is sent or any timer is armed.
import { describeValue } from '../errors/describe-value.js';
import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';

/**
 * The largest delay Node's timers honour (2^31 - 1 ms, about 24.8 days). A larger one does not
 * wait longer: Node fires it after 1 ms with a TimeoutOverflowWarning.
 */
export const MAX_TIMER_DELAY_MS = 2_147_483_647;

/** The largest znode version: ZooKeeper's versions are signed 32-bit counters. */
const MAX_VERSION = 2_147_483_647;

/** Asserts `value` is a finite number >= 0 (a duration or size); names the option when not. */
export function checkNonNegativeNumber(name: string, value: unknown): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new InvalidArgumentError(
      `${name} must be a finite number >= 0; got ${describeValue(value)}`,
    );
  }
}

/**
 * Asserts `value` is a whole number from 0 to `Number.MAX_SAFE_INTEGER` (a count such as
 * `maxRetries`); names the option when not.
 */
export function checkCount(name: string, value: unknown): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidArgumentError(
      `${name} must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}; got ${describeValue(value)}`,
    );
  }
}

/**
 * Asserts `value` is a usable timeout in milliseconds: finite, >= 0 and at most
 * 2147483647 ms, Node's longest timer (a larger one would silently fire after 1 ms).
 *
 * @example validateTimeoutMs('sessionTimeoutMs', options.sessionTimeoutMs)
 */
export function validateTimeoutMs(name: string, value: unknown): asserts value is number {
  checkNonNegativeNumber(name, value);
  if (value > MAX_TIMER_DELAY_MS) {
    throw new InvalidArgumentError(
      `${name} must be at most ${MAX_TIMER_DELAY_MS} ms (about 24.8 days, the longest delay ` +
        `Node's timers support); got ${value}`,
    );
  }
}

/**
 * Asserts `value` is a znode version for a conditional operation: a whole number from -1 to
 * 2^31 - 1, where -1 means "any version". `undefined` is accepted (no condition).
 */
export function validateVersion(
  value: unknown,
  name = 'version',
): asserts value is number | undefined {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < -1 || value > MAX_VERSION) {
    throw new InvalidArgumentError(
      `${name} must be a whole number from -1 (any version) to ${MAX_VERSION}; got ${describeValue(value)}`,
    );
  }
}
