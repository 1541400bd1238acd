// Kept over AbortSignal.any + timeout: docs/benchmarks.md "Own helpers kept, and why".
// The signal of a look-once call (a timeout of 0): it never waits for a change, but its
// requests still need an end. A connection that goes answers like a timeout; so does one that
// reads as up but does not answer (a paused server, a silent link), which the liveness check
// would only declare gone after 2/3 of the session timeout.
//
// A busy service makes thousands of look-once calls a second (acquire(0) in a loop), and an
// AbortController, a timer and a listener of their own cost each of them about a tenth of its
// round trip. So calls without a signal of their own share one per connection (when given the
// connection stream's signal), made at most every LOOK_ONCE_SLACK_MS: each call gets between LOOK_ONCE_ANSWER_WAIT_MS and that plus
// LOOK_ONCE_SLACK_MS.
import { performance } from 'node:perf_hooks';
import { ConnectionLossError } from '../errors/zookeeper-error-classes.js';
import { onAbort } from '../async/on-abort.js';
import { OWN_NODE_ANSWER_WAIT_MS } from './delete-own-node.js';

/**
 * How long a look-once call waits for the server's answers on a connection that reads as up:
 * as long as a recipe letting go of its node waits for its delete's answer.
 */
export const LOOK_ONCE_ANSWER_WAIT_MS = OWN_NODE_ANSWER_WAIT_MS;

/** How much longer than LOOK_ONCE_ANSWER_WAIT_MS a call sharing a signal may be given. */
const LOOK_ONCE_SLACK_MS = 10;

/** Per connection signal: the shared signal new calls join, and when it was made. */
const sharedLooks = new WeakMap<AbortSignal, { signal: AbortSignal; madeAtMs: number }>();

/**
 * Aborts with the reason of `connection` (a signal aborted when the connection goes), of
 * `caller`, or, after {@link LOOK_ONCE_ANSWER_WAIT_MS}, with a ConnectionLossError. Shared by
 * CallLimits and a lock's acquire(0).
 */
export class LookOnceSignal implements Disposable {
  readonly #signal: AbortSignal;
  readonly #caller: AbortSignal | undefined;
  readonly #stop: (() => void) | undefined;

  /**
   * @param connection aborted when the connection goes
   * @param caller the caller's own signal, if any
   * @param shared true when `connection` lives as long as the connection (the connection
   *   stream's `connectionSignal()`): calls without a caller's signal then share one signal
   */
  constructor(connection: AbortSignal, caller: AbortSignal | undefined, shared = false) {
    this.#caller = caller;
    if (shared && caller === undefined && !connection.aborted) {
      this.#signal = sharedLook(connection);
      return;
    }
    const controller = new AbortController();
    this.#signal = controller.signal;
    const first = caller?.aborted === true ? caller : connection.aborted ? connection : undefined;
    if (first !== undefined) {
      controller.abort(first.reason);
      return;
    }
    const stop = giveUpWith(controller, connection, LOOK_ONCE_ANSWER_WAIT_MS);
    const stopCaller = caller && onAbort(caller, () => abortOnce(controller, caller.reason));
    this.#stop = () => {
      stop();
      stopCaller?.();
    };
  }

  /** The signal to give the call's requests. */
  get signal(): AbortSignal {
    return this.#signal;
  }

  /**
   * True when `error` is why this signal gave up by itself (the connection went, no answer in
   * time): the call then answers like a timeout. The caller's own abort is not.
   */
  gaveUp(error: unknown): boolean {
    const signal = this.#signal;
    if (!signal.aborted || error !== signal.reason) return false;
    return !(this.#caller?.aborted === true && error === this.#caller.reason);
  }

  /** Stops the timer and listeners of a signal of the call's own; a shared one ends by itself. */
  [Symbol.dispose](): void {
    this.#stop?.();
  }
}

/** The connection's shared signal for calls made now, a new one every LOOK_ONCE_SLACK_MS. */
function sharedLook(connection: AbortSignal): AbortSignal {
  const now = performance.now();
  const current = sharedLooks.get(connection);
  if (
    current !== undefined &&
    !current.signal.aborted &&
    now - current.madeAtMs <= LOOK_ONCE_SLACK_MS
  ) {
    return current.signal;
  }
  const controller = new AbortController();
  // Nothing to dispose per call: the timer and the listener end with the signal itself.
  giveUpWith(controller, connection, LOOK_ONCE_ANSWER_WAIT_MS + LOOK_ONCE_SLACK_MS);
  sharedLooks.set(connection, { signal: controller.signal, madeAtMs: now });
  return controller.signal;
}

/**
 * Aborts `controller` with `connection`'s reason when it aborts, or with a ConnectionLossError
 * after `waitMs`; whichever comes first stops the other. Returns the function that stops both.
 */
function giveUpWith(
  controller: AbortController,
  connection: AbortSignal,
  waitMs: number,
): () => void {
  const stopFollowing = onAbort(connection, () => {
    clearTimeout(timer);
    abortOnce(controller, connection.reason);
  });
  const timer = setTimeout(() => {
    stopFollowing();
    abortOnce(
      controller,
      new ConnectionLossError({ detail: `no answer within ${waitMs} ms to a look-once call` }),
    );
  }, waitMs).unref();
  return () => {
    clearTimeout(timer);
    stopFollowing();
  };
}

function abortOnce(controller: AbortController, reason: unknown): void {
  if (!controller.signal.aborted) controller.abort(reason);
}
