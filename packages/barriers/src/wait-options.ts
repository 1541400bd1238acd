import { validateTimeoutMs } from '@zkrecipes/framework';
import { checkOptionsObject, signalOption } from '@zkrecipes/framework/recipe-support';

/** Options of every blocking call of the barriers. */
export interface WaitOptions {
  /**
   * Give up after this many milliseconds: the call then resolves `false`. Default: wait until
   * the condition holds, the signal aborts or the client closes.
   */
  readonly timeoutMs?: number | undefined;
  /** Aborting rejects the call with the signal's reason. Default: none. */
  readonly signal?: AbortSignal | undefined;
}

/** Asserts `options` is a {@link WaitOptions} object (or undefined), before anything is sent. */
export function validateWaitOptions(options: unknown): asserts options is WaitOptions | undefined {
  checkOptionsObject(options);
  if (options === undefined) return;
  const { timeoutMs, signal } = options as { timeoutMs?: unknown; signal?: unknown };
  if (timeoutMs !== undefined) validateTimeoutMs('timeoutMs', timeoutMs);
  signalOption(signal);
}
