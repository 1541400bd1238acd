// Waiting on a one-shot ZooKeeper watch with a deadline, an AbortSignal and the client's
// lifetime. Many recipe waits are "read with a watch, then wait for the watch (or give up)",
// so that shape lives here once, for every recipe package.
import type { FrameworkClient } from '../client/framework-client.js';
import { ClosedError } from '../errors/zookeeper-error-classes.js';
import type { WatchedEvent } from '../zk/zookeeper-types.js';
import { onAbort } from '../retry/on-abort.js';

/** What {@link waitForWake} resolves when the deadline passes first. */
export const TIMED_OUT: unique symbol = Symbol('timed out');

/**
 * A one-shot wake-up: pass `watch` and `signal` to a read, then wait on `event`. `cancel()`
 * silences the watcher (the server-side watch stays until it fires or the session ends: the
 * wire client cannot remove watches).
 */
export class Wake {
  readonly #controller = new AbortController();
  /** Resolves with the first event the watch delivers. */
  readonly event: Promise<WatchedEvent>;
  /** The watcher to pass to the read (`{ watch: wake.watch, signal: wake.signal }`). */
  readonly watch: (event: WatchedEvent) => void;

  constructor() {
    let fire: (event: WatchedEvent) => void = () => undefined;
    this.event = new Promise<WatchedEvent>((resolve) => (fire = resolve));
    this.watch = (event) => fire(event);
  }

  /** Aborted by {@link cancel}; the framework then never calls the watcher. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Silences the watcher from our side. */
  cancel(): void {
    this.#controller.abort();
  }
}

/** Options of {@link waitForWake}. */
export interface WaitForWakeOptions {
  /** `performance.now()` value to give up at; undefined waits without a deadline. */
  readonly deadline?: number | undefined;
  /** Aborting rejects with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
  /** A closed client never fires watches again: its close rejects the wait with ClosedError. */
  readonly client: FrameworkClient;
  /** Named in the ClosedError. */
  readonly path: string;
}

/**
 * Resolves with the value of `promise`, or {@link TIMED_OUT} once the deadline passes. Rejects
 * with `signal.reason` when the signal aborts, and with ClosedError when the client closes.
 */
export function waitForWake<T>(
  promise: Promise<T>,
  options: WaitForWakeOptions,
): Promise<T | typeof TIMED_OUT> {
  const { deadline, signal, client, path } = options;
  return new Promise<T | typeof TIMED_OUT>((resolve, reject) => {
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    // Filled in below; `finish` may run before that (an already-closed client completes at once).
    const held: { subscription?: { unsubscribe(): void } } = {};
    const finish = (action: () => void): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stopListening?.();
      held.subscription?.unsubscribe();
      action();
    };
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the caller's reason, unchanged
    const aborted = (): void => finish(() => reject(signal?.reason));
    if (signal?.aborted === true) {
      aborted();
      return;
    }
    const stopListening = signal && onAbort(signal, aborted);
    if (deadline !== undefined) {
      const remainingMs = Math.max(0, deadline - performance.now());
      timer = setTimeout(() => finish(() => resolve(TIMED_OUT)), remainingMs);
    }
    // The state stream completes when the client closes; a completed stream completes at once.
    const subscription = client.connectionStates.subscribe({
      complete: () => finish(() => reject(new ClosedError({ path }))),
    });
    if (done) subscription.unsubscribe();
    else held.subscription = subscription;
    promise.then(
      (value) => finish(() => resolve(value)),
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on unchanged
      (error: unknown) => finish(() => reject(error)),
    );
  });
}

/** The deadline for a `timeoutMs` option, on the `performance.now()` clock. */
export function deadlineOf(timeoutMs: number | undefined): number | undefined {
  return timeoutMs === undefined ? undefined : performance.now() + timeoutMs;
}
