// LeaderLatch.await: the one place the latch blocks. Everything armed here (the subscription,
// the timer, the abort listener) is disarmed before it settles, so a process that waits often
// keeps nothing behind.
import { Subscription, type Observable } from 'rxjs';

/** What {@link waitForLeadership} takes. */
export interface WaitForLeadershipOptions {
  /** Resolve false after this long; undefined waits without a limit, 0 does not wait. */
  readonly timeoutMs?: number | undefined;
  /** Aborting rejects with its reason. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Resolves true at the first `true` of `leadership` (which replays its current value), false
 * when it completes (the latch closed) or `timeoutMs` passes first.
 */
export function waitForLeadership(
  leadership: Observable<boolean>,
  options: WaitForLeadershipOptions,
): Promise<boolean> {
  const { timeoutMs, signal } = options;
  return new Promise<boolean>((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    // Unsubscribed by finish(); one that settles inside subscribe() is torn down by add().
    const subscription = new Subscription();
    const finish = (): void => {
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      subscription.unsubscribe();
    };
    const onAbort = (): void => {
      finish();
      reject(signal?.reason as Error);
    };
    subscription.add(
      leadership.subscribe({
        next: (leading) => {
          if (!leading || settled) return;
          finish();
          resolve(true);
        },
        complete: () => {
          if (settled) return;
          finish();
          resolve(false);
        },
      }),
    );
    if (settled) return;
    if (timeoutMs === 0) {
      finish();
      resolve(false);
      return;
    }
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => {
        finish();
        resolve(false);
      }, timeoutMs);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
