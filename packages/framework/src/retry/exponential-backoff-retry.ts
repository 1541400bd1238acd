import { checkCount, checkNonNegativeNumber } from '../checks/validate-number.js';
import type { RetryAttempt, RetryPolicy, RetryWarningLogger } from './retry-policy.js';
import { checkPolicyOptions } from './check-policy-options.js';

/**
 * The exponent stops growing here, so the random multiplier stays below 2^30 (Curator's
 * `1 << (retryCount + 1)` as far as a Java int allows) and can never overflow to Infinity, however
 * large the retry count.
 */
const MAX_BACKOFF_EXPONENT = 30;

/** Curator's default sleep bound, Integer.MAX_VALUE: also the longest delay Node's timers take. */
const DEFAULT_MAX_SLEEP_MS = 2_147_483_647;

/** Options of {@link ExponentialBackoffRetry}. */
export interface ExponentialBackoffRetryOptions {
  /** The unit of sleep: the first retry waits `baseSleepMs` times 1 to 3. Required. */
  baseSleepMs: number;
  /**
   * How many times to retry after the first failure. Required. Any whole number up to
   * `Number.MAX_SAFE_INTEGER` is honoured as given: there is no silent cap (Curator pins this to
   * 29). The sleep's random range stops doubling after retry 29; from then on each sleep is at
   * most `baseSleepMs * (2^30 - 1)`, further bounded by `maxSleepMs`.
   */
  maxRetries: number;
  /** Upper bound of every sleep. Default: 2147483647 (about 24.8 days), Curator's default. */
  maxSleepMs?: number | undefined;
  /** Random numbers in [0, 1), for deterministic tests. Default: `Math.random`. */
  random?: (() => number) | undefined;
  /**
   * Receives one warning at construction when `maxRetries` runs past the point where the
   * exponent stops growing (more than 30) while `maxSleepMs` is left at its default: sleeps of
   * many days are then possible. Default: no logging.
   */
  logger?: RetryWarningLogger | undefined;
}

/**
 * Retries up to `maxRetries` times with randomized, growing sleeps (Curator's
 * `ExponentialBackoffRetry`, after Hadoop): before retry `n` (counting from 0) it sleeps
 * `baseSleepMs * max(1, floor(random() * 2^(n + 1)))`, at most `maxSleepMs`. So the first retry
 * waits 1-3 units, the second 1-7, the third 1-15.
 *
 * @example new ExponentialBackoffRetry({ baseSleepMs: 1000, maxRetries: 3 })
 */
export class ExponentialBackoffRetry implements RetryPolicy {
  /** The unit of sleep, in milliseconds, as given in the options. */
  readonly baseSleepMs: number;
  /** How many retries follow the first failed attempt. */
  readonly maxRetries: number;
  /** The upper bound of every sleep, in milliseconds (2147483647 unless set). */
  readonly maxSleepMs: number;
  readonly #random: () => number;

  constructor(options: ExponentialBackoffRetryOptions) {
    checkPolicyOptions('ExponentialBackoffRetry', options, '{ baseSleepMs, maxRetries }');
    const { baseSleepMs, maxRetries, maxSleepMs = DEFAULT_MAX_SLEEP_MS } = options;
    checkNonNegativeNumber('baseSleepMs', baseSleepMs);
    checkCount('maxRetries', maxRetries);
    checkNonNegativeNumber('maxSleepMs', maxSleepMs);
    this.baseSleepMs = baseSleepMs;
    this.maxRetries = maxRetries;
    this.maxSleepMs = maxSleepMs;
    this.#random = options.random ?? Math.random;
    if (maxRetries > MAX_BACKOFF_EXPONENT && options.maxSleepMs === undefined && baseSleepMs > 0) {
      options.logger?.warn(
        `ExponentialBackoffRetry: maxRetries is ${maxRetries} and maxSleepMs is not set, so ` +
          `later sleeps may last up to ${longestSleepMs(baseSleepMs, maxSleepMs)} ms; set ` +
          `maxSleepMs (or use BoundedExponentialBackoffRetry) to bound each sleep`,
      );
    }
  }

  nextDelayMs(attempt: RetryAttempt): number | undefined {
    if (attempt.retryCount >= this.maxRetries) return undefined;
    const exponent = Math.min(attempt.retryCount + 1, MAX_BACKOFF_EXPONENT);
    const multiplier = Math.max(1, Math.floor(this.#random() * 2 ** exponent));
    return Math.min(this.maxSleepMs, this.baseSleepMs * multiplier);
  }
}

function longestSleepMs(baseSleepMs: number, maxSleepMs: number): number {
  return Math.min(maxSleepMs, baseSleepMs * (2 ** MAX_BACKOFF_EXPONENT - 1));
}
