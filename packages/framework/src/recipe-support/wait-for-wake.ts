// Kept over events.once/addEventListener: docs/benchmarks.md "Own helpers kept, and why".
// The one wait of the recipes: until a wake (a watch firing, a promise settling), the deadline
// or the caller's signal, or the client's close. Close semantics, the same for every caller: a
// closed client never fires a watch again, so its close rejects the wait with ClosedError (as
// the next request would). An abort rejects with the signal's reason; a deadline given as a
// `performance.now()` instant resolves TIMED_OUT. Everything armed is disarmed before the wait
// returns, so a process that waits millions of times keeps no listeners behind.
import { performance } from 'node:perf_hooks';
import { ClosedError } from '../errors/zookeeper-error-classes.js';
import { onAbort } from '../async/on-abort.js';

/** What {@link waitForWake} resolves when the deadline passes first. */
export const TIMED_OUT: unique symbol = Symbol('timed out');

/** Options of {@link WakeWait.wait} and {@link waitForWake}. */
export interface WaitForWakeOptions {
  /** Aborting rejects with its reason (the call's deadline, the caller giving up). */
  readonly signal?: AbortSignal | undefined;
  /**
   * The client's close: `connectionStreamOf(client).closedSignal`. Its abort rejects with a
   * ClosedError naming `path`. Undefined: the caller's signal covers the close.
   */
  readonly closed?: AbortSignal | undefined;
  /** Named in the ClosedError. */
  readonly path?: string | undefined;
}

/**
 * A wait that a watcher ends. Made before the watched read is sent and handed to it as the
 * watcher (`{ watch: wait.wake }`), so the event ends the wait directly, without a promise or an
 * abort signal in between (the locks' hot path). A wake after the wait ended does nothing, so
 * the watcher needs no silencing.
 */
export class WakeWait {
  #woken = false;
  #ended = false;
  #settle: (() => void) | undefined;

  /** The watcher: ends the wait (or, before {@link wait}, makes it return at once). */
  readonly wake = (): void => {
    this.#woken = true;
    this.#settle?.();
  };

  /** True once the wait is over, whatever ended it: a wake now comes too late. */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * Waits for {@link wake}. Rejects with `signal.reason` when the signal aborts, and with
   * ClosedError when `closed` aborts (an abort wins over a wake, a wake over the close). Call
   * it once.
   */
  wait(options: WaitForWakeOptions): Promise<void> {
    const { signal, closed } = options;
    this.#ended = true;
    if (signal?.aborted === true) return Promise.reject(signal.reason as Error);
    if (this.#woken) return Promise.resolve();
    if (closed?.aborted === true) return Promise.reject(closedError(options.path));
    this.#ended = false;
    return new Promise<void>((resolve, reject) => {
      const finish = (): void => {
        this.#ended = true;
        this.#settle = undefined;
        stopAbort?.();
        stopClosed?.();
      };
      this.#settle = () => {
        finish();
        resolve();
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
          reject(closedError(options.path));
        });
    });
  }
}

/** Options of {@link waitForWake}: those of {@link WakeWait.wait}, and a deadline. */
export interface WaitForWakeDeadlineOptions extends WaitForWakeOptions {
  /** `performance.now()` value to give up at (resolving TIMED_OUT); undefined: no deadline. */
  readonly deadline?: number | undefined;
}

/**
 * Settles as `promise` does, or resolves {@link TIMED_OUT} once the deadline passes; rejects
 * with `signal.reason` when the signal aborts and with ClosedError when `closed` aborts first.
 * The promise goes on (its late outcome is observed and dropped).
 */
export async function waitForWake<T>(
  promise: Promise<T>,
  options: WaitForWakeDeadlineOptions,
): Promise<T | typeof TIMED_OUT> {
  const wait = new WakeWait();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const { deadline } = options;
  if (deadline !== undefined) {
    timer = setTimeout(
      () => {
        timedOut = !wait.ended;
        wait.wake();
      },
      Math.max(0, deadline - performance.now()),
    );
  }
  promise.then(wait.wake, wait.wake);
  try {
    await wait.wait(options);
  } finally {
    clearTimeout(timer);
  }
  return timedOut ? TIMED_OUT : promise;
}

/** The deadline for a `timeoutMs` option, on the `performance.now()` clock. */
export function deadlineOf(timeoutMs: number | undefined): number | undefined {
  return timeoutMs === undefined ? undefined : performance.now() + timeoutMs;
}

function closedError(path: string | undefined): ClosedError {
  return new ClosedError(path === undefined ? {} : { path });
}
