// A wait that must end early without cancelling the work waited for: a take that gives up on a
// listing or a read shared with other takes leaves them running for the others.

/**
 * Settles like `promise`, or rejects with the reason of the first of `signals` to abort
 * (already aborted: at once). `promise` is still observed afterwards, so its late rejection is
 * never unhandled. No signal: `promise` itself.
 */
export function settleWithin<T>(
  promise: Promise<T>,
  first: AbortSignal | undefined,
  second?: AbortSignal,
): Promise<T> {
  if (first === undefined && second === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const stop = (): void => {
      first?.removeEventListener('abort', onAbort);
      second?.removeEventListener('abort', onAbort);
    };
    function onAbort(this: AbortSignal): void {
      stop();
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the signal's reason, unchanged
      reject(this.reason);
    }
    for (const signal of [first, second]) {
      if (signal?.aborted === true) {
        onAbort.call(signal);
        break;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
    }
    promise.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on unchanged
        reject(error);
      },
    );
  });
}
