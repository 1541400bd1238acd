// The limits of one discovery call: the caller's timeout and signal, and the recipe's close.
import { ClosedError, OperationTimeoutError } from '@zkrecipes/framework';
import { checkWaitOptions, Deadline, untilAborted } from '@zkrecipes/framework/recipe-support';

/** What every waiting call of this package accepts. */
export interface CallOptions {
  /** Give up after this long: the call rejects with OperationTimeoutError. Default: no limit. */
  readonly timeoutMs?: number | undefined;
  /**
   * Aborting rejects the call with the signal's reason; a signal aborted already does so before
   * anything is sent. Default: none.
   */
  readonly signal?: AbortSignal | undefined;
}

/** Checks `options` (before anything is sent) and returns them. */
export function checkCallOptions(options: CallOptions | undefined): CallOptions {
  checkWaitOptions(options);
  return options ?? {};
}

/**
 * Runs `work` with one signal that ends with the caller's timeout, the caller's signal or
 * `closing`: a timeout rejects with OperationTimeoutError, a close with ClosedError, the
 * caller's abort with its reason.
 */
export async function withCallLimits<T>(
  options: CallOptions,
  closing: AbortSignal,
  what: string,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  using deadline = Deadline.of(options);
  const own = deadline.signal;
  const signal = own === undefined ? closing : AbortSignal.any([own, closing]);
  if (closing.aborted) throw new ClosedError({ detail: `${what}: closed` });
  try {
    return await work(signal);
  } catch (error) {
    if (deadline.isExpiry(error) || (deadline.expired && options.signal?.aborted !== true)) {
      throw new OperationTimeoutError({
        detail: `${what}: no answer within ${options.timeoutMs} ms`,
        cause: error,
      });
    }
    if (closing.aborted && options.signal?.aborted !== true) {
      throw new ClosedError({ detail: `${what}: closed`, cause: error });
    }
    throw error;
  }
}

/**
 * Resolves `promise`, or rejects as {@link withCallLimits} does once the limits end first
 * (`promise` itself carries on).
 */
export function raceCallLimits<T>(
  options: CallOptions,
  closing: AbortSignal,
  what: string,
  promise: Promise<T>,
): Promise<T> {
  return withCallLimits(options, closing, what, (signal) => untilAborted(promise, signal));
}
