import { performance } from 'node:perf_hooks';
import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { isRetryable as isRetryableError } from '../errors/predicates.js';
import { abortableSleep } from '../async/abortable-sleep.js';
import { untilAborted } from '../async/until-aborted.js';
import type { RetryPolicy } from './retry-policy.js';

/** What {@link RetryLoopOptions.onRetry} is told before each sleep. */
export interface RetryInfo {
  /** Retries already made, as the policy saw it: 0 before the first retry. */
  readonly retryCount: number;
  /** How long the loop will now sleep. */
  readonly delayMs: number;
  /** Milliseconds since the first attempt started. */
  readonly elapsedMs: number;
  /** The error that caused this retry. */
  readonly error: unknown;
}

/** Options of {@link retryLoop}. */
export interface RetryLoopOptions {
  /** Decides whether and when to retry. Required. */
  policy: RetryPolicy;
  /** Aborting rejects the loop with the signal's reason at once, during a sleep or an attempt. */
  signal?: AbortSignal | undefined;
  /**
   * A second signal that ends the loop the same way (the client's close next to a caller's
   * signal), without the cost of combining the two with `AbortSignal.any` per operation.
   */
  closedSignal?: AbortSignal | undefined;
  /**
   * True when every attempt settles by itself, at once, when `signal` or `closedSignal` aborts
   * (each request it awaits went to the connection with `signal`, which ends it on either; see
   * the framework's InFlightRequests). The loop then does not race the attempts against the
   * signals, which costs a promise and two listeners per attempt. Default: false.
   */
  attemptsEndOnAbort?: boolean | undefined;
  /**
   * Which errors may be retried at all; others are rethrown at once. Default: `isRetryable`
   * (CONNECTION_LOSS, OPERATION_TIMEOUT, SESSION_MOVED, SESSION_EXPIRED).
   */
  isRetryable?: ((error: unknown) => boolean) | undefined;
  /** Called before each sleep, e.g. to log at debug level. If it throws, the loop ends with that error. */
  onRetry?: ((info: RetryInfo) => void) | undefined;
  /** Waits `ms`, rejecting when `signal` aborts. Default: a timer. Injectable for unit tests. */
  sleep?: ((ms: number, signal: AbortSignal | undefined) => Promise<void>) | undefined;
  /** A monotonic clock in milliseconds. Default: `performance.now`. */
  now?: (() => number) | undefined;
}

/**
 * Runs `operation` until it succeeds, retrying retryable failures as the policy allows (Curator's
 * `RetryLoop.callWithRetry`). This is the one place in the framework that sleeps between attempts.
 *
 * - A non-retryable error is rethrown at once, unchanged.
 * - When the policy stops, the latest error is rethrown, unchanged.
 * - When `signal` aborts, the loop rejects with `signal.reason` without waiting for the
 *   current sleep or attempt to finish (an attempt already sent may still take effect).
 *
 * @param operation one attempt; receives the attempt number, 0 for the first.
 * @example
 * const stat = await retryLoop(() => zk.exists(path), { policy: client.retryPolicy, signal });
 */
export async function retryLoop<T>(
  operation: (attempt: number) => Promise<T>,
  options: RetryLoopOptions,
): Promise<T> {
  const { policy, signal, closedSignal, onRetry, attemptsEndOnAbort = false } = options;
  const isRetryable = options.isRetryable ?? isRetryableError;
  const sleep = options.sleep ?? abortableSleep;
  const now = options.now ?? (() => performance.now());
  const startMs = now();

  const signals = closedSignal === undefined ? signal : [signal, closedSignal];
  for (let retryCount = 0; ; retryCount++) {
    throwIfEitherAborted(signal, closedSignal);
    try {
      const attempt = operation(retryCount);
      return await (attemptsEndOnAbort ? attempt : untilAborted(attempt, signals));
    } catch (error) {
      throwIfEitherAborted(signal, closedSignal);
      if (!isRetryable(error)) throw error;
      const elapsedMs = now() - startMs;
      const delayMs = policy.nextDelayMs({ retryCount, elapsedMs, error });
      if (delayMs === undefined) throw error;
      checkDelay(delayMs, error);
      onRetry?.({ retryCount, delayMs, elapsedMs, error });
      await untilAborted(sleep(delayMs, signal ?? closedSignal), signals);
    }
  }
}

/**
 * Throws the reason of the first of the two signals that has aborted. One function for both
 * checks of the loop: the check after a failure then shares the signal shapes the check before
 * every attempt has seen, and a failure (a NONODE, say) does not throw away the loop's
 * optimized code because a kind of signal first reached it there.
 */
function throwIfEitherAborted(
  signal: AbortSignal | undefined,
  closedSignal: AbortSignal | undefined,
): void {
  if (signal?.aborted === true) throw signal.reason;
  if (closedSignal?.aborted === true) throw closedSignal.reason;
}

/**
 * A policy returning NaN, a negative or an infinite delay is a bug in the policy; say so rather
 * than sleeping for a surprising time (NaN and Infinity would become a 1 ms timer in Node).
 *
 * @internal
 */
export function checkDelay(delayMs: number, error: unknown): void {
  if (typeof delayMs !== 'number' || !Number.isFinite(delayMs) || delayMs < 0) {
    throw new InvalidArgumentError(
      `retry policy returned delay ${String(delayMs)}; a delay must be a finite number >= 0 ` +
        `or undefined to stop`,
      { cause: error },
    );
  }
}
