// LeaderLatch.await: the one place the latch blocks. The framework's waitForWake bounds it (the
// deadline, the caller's signal, the client closing); the latch closing ends its stream.
// Everything armed here is disarmed before it settles, so a process that waits often keeps
// nothing behind.
import { Subscription, type Observable } from 'rxjs';
import { ClosedError, type FrameworkClient } from '@zkrecipes/framework';
import {
  deadlineOf,
  TIMED_OUT,
  waitForWake,
  connectionStreamOf,
} from '@zkrecipes/framework/recipe-support';

/** What {@link waitForLeadership} takes. */
export interface WaitForLeadershipOptions {
  /** Resolve false after this long; undefined waits without a limit, 0 does not wait. */
  readonly timeoutMs: number | undefined;
  /** Aborting rejects with its reason. */
  readonly signal: AbortSignal | undefined;
  /** Its close rejects the wait with ClosedError. */
  readonly client: FrameworkClient;
  /** Named in the ClosedError. */
  readonly path: string;
}

/**
 * Resolves true at the first `true` of `leadership` (which replays its current value), false
 * when `timeoutMs` passes first. Rejects with ClosedError when `leadership` completes (the
 * latch closed) or the client closes, and with the signal's reason when it aborts.
 */
export async function waitForLeadership(
  leadership: Observable<boolean>,
  options: WaitForLeadershipOptions,
): Promise<boolean> {
  const { timeoutMs, signal, client, path } = options;
  const subscription = new Subscription();
  const led = new Promise<true>((resolve, reject) => {
    subscription.add(
      leadership.subscribe({
        next: (leading) => {
          if (leading) resolve(true);
        },
        complete: () => reject(new ClosedError({ path, detail: 'LeaderLatch closed' })),
      }),
    );
  });
  try {
    // With timeoutMs 0 the timer fires a turn later: a latch that leads already (the replay
    // resolved `led` just now) still answers true, a closed client still rejects.
    const outcome = await waitForWake(led, {
      deadline: deadlineOf(timeoutMs),
      signal,
      closed: connectionStreamOf(client).closedSignal,
      path,
    });
    return outcome !== TIMED_OUT;
  } finally {
    subscription.unsubscribe();
  }
}
