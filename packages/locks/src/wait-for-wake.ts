// The one place the locks block: until a watch fires, a timeout passes, the caller aborts or
// the client closes. Everything armed here is disarmed before it returns, so a long-lived
// process that waits millions of times keeps no timers or abort listeners behind.

/** Why {@link waitForWake} returned. */
export type WakeReason = 'woken' | 'timeout' | 'closed';

/** Options of {@link waitForWake}. */
export interface WaitForWakeOptions {
  /** Give up after this long; undefined waits without a limit. */
  readonly timeoutMs: number | undefined;
  /** The caller's signal: aborting rejects with its reason. */
  readonly signal: AbortSignal | undefined;
  /** Aborted when the client closes: returns 'closed' (the next operation then fails). */
  readonly closed: AbortSignal;
}

/**
 * Waits for `wake` (a watch firing), at most `timeoutMs`. Rejects with `signal.reason` when the
 * caller aborts; the caller then cleans up.
 */
export function waitForWake(wake: Promise<void>, options: WaitForWakeOptions): Promise<WakeReason> {
  const { timeoutMs, signal, closed } = options;
  if (signal?.aborted === true) return Promise.reject(signal.reason as Error);
  if (closed.aborted) return Promise.resolve('closed');
  return new Promise<WakeReason>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const finish = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      closed.removeEventListener('abort', onClosed);
    };
    const onAbort = (): void => {
      finish();
      reject(signal?.reason as Error);
    };
    const onClosed = (): void => {
      finish();
      resolve('closed');
    };
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => {
        finish();
        resolve('timeout');
      }, timeoutMs);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    closed.addEventListener('abort', onClosed, { once: true });
    void wake.then(() => {
      finish();
      resolve('woken');
    });
  });
}

/** Sleeps `ms`, rejecting with `signal.reason` if the caller aborts first. */
export async function sleepUnlessAborted(
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const never = new Promise<void>(() => undefined);
  const dummyClosed = new AbortController().signal;
  await waitForWake(never, { timeoutMs: ms, signal, closed: dummyClosed });
}
