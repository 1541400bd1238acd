// The one place the locks block: until a watch fires, the caller's deadline or signal ends the
// call, or the client closes. The deadline arrives as the AbortSignal the call's requests get
// too, so a wait needs no timer of its own. Everything armed here is disarmed before it
// returns, so a long-lived process that waits millions of times keeps no listeners behind.

import { onAbort } from '@zkrecipes/framework/recipe-support';

/** Why a wait returned (an abort rejects instead). */
export type WakeReason = 'woken' | 'closed';

/** Options of {@link WakeWait.wait} and {@link waitForWake}. */
export interface WaitForWakeOptions {
  /**
   * The call's signal (its deadline and the caller's signal): aborting rejects with its reason.
   * Undefined waits without a limit.
   */
  readonly signal: AbortSignal | undefined;
  /** Aborted when the client closes: returns 'closed' (the next operation then fails). */
  readonly closed?: AbortSignal | undefined;
}

/**
 * A wait that a watcher ends. Made before the watched read is sent and handed to it as the
 * watcher (`{ watch: wait.wake }`), so the event ends the wait directly, without a promise or an
 * abort signal in between. A wake after the wait ended does nothing, so the watcher needs no
 * silencing: a watch that fires after an abort finds nothing left to do.
 */
export class WakeWait {
  #woken = false;
  #ended = false;
  #settle: ((reason: WakeReason) => void) | undefined;

  /** The watcher: ends the wait with 'woken' (or, before {@link wait}, makes it return so). */
  readonly wake = (): void => {
    this.#woken = true;
    this.#settle?.('woken');
  };

  /** True once the wait is over, whatever ended it: a wake now comes too late. */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * Waits for {@link wake}. Rejects with `signal.reason` when the signal aborts (the deadline
   * passed or the caller gave up); the caller then cleans up. Call it once.
   */
  wait(options: WaitForWakeOptions): Promise<WakeReason> {
    const { signal, closed } = options;
    this.#ended = true;
    if (signal?.aborted === true) return Promise.reject(signal.reason as Error);
    if (this.#woken) return Promise.resolve('woken');
    if (closed?.aborted === true) return Promise.resolve('closed');
    this.#ended = false;
    return new Promise<WakeReason>((resolve, reject) => {
      const finish = (): void => {
        this.#ended = true;
        this.#settle = undefined;
        stopAbort?.();
        stopClosed?.();
      };
      this.#settle = (reason) => {
        finish();
        resolve(reason);
      };
      // Every waiter of a client (and often of a caller's shared signal) listens here.
      const stopAbort =
        signal &&
        onAbort(signal, () => {
          finish();
          reject(signal.reason as Error);
        });
      const stopClosed =
        closed &&
        onAbort(closed, () => {
          finish();
          resolve('closed');
        });
    });
  }
}

/**
 * Waits for `wake` to settle (either way). Rejects with `signal.reason` when the signal aborts;
 * the caller then cleans up.
 */
export function waitForWake(
  wake: Promise<unknown>,
  options: WaitForWakeOptions,
): Promise<WakeReason> {
  const wait = new WakeWait();
  wake.then(wait.wake, wait.wake);
  return wait.wait(options);
}

/** Sleeps `ms`, rejecting with `signal.reason` if the signal aborts first. */
export async function sleepUnlessAborted(
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const wait = new WakeWait();
  const timer = setTimeout(wait.wake, ms);
  try {
    await wait.wait({ signal });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Settles as `work` does, or rejects with `signal.reason` once `signal` aborts first; the work
 * itself goes on (its late outcome is dropped). Costs a listener on `signal`, where handing the
 * signal to a framework operation would combine it with the client's own.
 */
export async function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  if (signal !== undefined) await waitForWake(work, { signal });
  return work;
}
