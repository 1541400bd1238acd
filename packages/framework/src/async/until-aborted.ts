// Kept over a race with events.once: docs/benchmarks.md "Own helpers kept, and why".
import { onAnyAbort } from './on-abort.js';

/**
 * Settles like `promise`, or rejects with the abort reason as soon as `signal` aborts. Whatever
 * `promise` does afterwards is still observed, so a late rejection is never unhandled.
 */
export function untilAborted<T>(
  promise: Promise<T>,
  signals: AbortSignal | readonly (AbortSignal | undefined)[] | undefined,
): Promise<T> {
  if (signals === undefined) return promise;
  const list: readonly (AbortSignal | undefined)[] =
    signals instanceof AbortSignal ? [signals] : signals;
  return new Promise<T>((resolve, reject) => {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on unchanged
    const fail = (reason: unknown): void => reject(reason);
    let stop = (): void => {};
    // Observed whatever happens, so a rejection after an abort is never unhandled.
    promise.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        fail(error);
      },
    );
    stop = onAnyAbort(list, (aborted) => fail(aborted.reason));
  });
}

/**
 * True when `error` is what an operation given `signal` rejects with because the signal
 * aborted (its reason), as opposed to a failure of its own.
 *
 * @internal
 */
export function isAbortOf(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && error === signal.reason;
}
