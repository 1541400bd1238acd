// Kept over timers/promises setTimeout: docs/benchmarks.md "Own helpers kept, and why".
// The default sleep of the retry loop: a timer that an AbortSignal cancels at once.
import { onAbort } from './on-abort.js';

/** The longest delay one Node timer takes; longer sleeps are made of several timers. */
const MAX_TIMER_DELAY_MS = 2_147_483_647;

/** Options of {@link abortableSleep}. */
export interface AbortableSleepOptions {
  /** Let the process exit while this sleep is pending (a background retry). Default false. */
  unref?: boolean | undefined;
}

/**
 * Resolves after `ms` milliseconds, or rejects with `signal.reason` as soon as the signal
 * aborts (at once if it already has). Delays beyond a single timer's 24.8-day limit are chained
 * rather than letting Node fire them after 1 ms.
 */
export function abortableSleep(
  ms: number,
  signal?: AbortSignal,
  options?: AbortableSleepOptions,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on unchanged
      reject(signal.reason);
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const stopListening =
      signal === undefined
        ? undefined
        : onAbort(signal, () => {
            clearTimeout(timer);
            // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on unchanged
            reject(signal.reason);
          });
    const wait = (remainingMs: number): void => {
      const stepMs = Math.min(remainingMs, MAX_TIMER_DELAY_MS);
      timer = setTimeout(() => {
        if (remainingMs > stepMs) {
          wait(remainingMs - stepMs);
          return;
        }
        stopListening?.();
        resolve();
      }, stepMs);
      if (options?.unref === true) timer.unref();
    };
    wait(Math.max(0, ms));
  });
}
