// The signal of a look-once call (a timeout of 0): it never waits for a change, but its
// requests still need an end. A connection that goes answers like a timeout; so does one that
// reads as up but does not answer (a paused server, a silent link), which the liveness check
// would only declare gone after 2/3 of the session timeout.
import { ConnectionLossError } from '../errors/zookeeper-error-classes.js';
import { onAbort } from '../retry/on-abort.js';
import { OWN_NODE_ANSWER_WAIT_MS } from './delete-own-node.js';

/**
 * How long a look-once call waits for the server's answers on a connection that reads as up:
 * as long as a recipe letting go of its node waits for its delete's answer.
 */
export const LOOK_ONCE_ANSWER_WAIT_MS = OWN_NODE_ANSWER_WAIT_MS;

/**
 * Aborts with the reason of `connection` (a signal aborted when the connection goes), of
 * `caller`, or, after {@link LOOK_ONCE_ANSWER_WAIT_MS}, with a ConnectionLossError. Shared by
 * CallLimits and a lock's acquire(0).
 */
export class LookOnceSignal implements Disposable {
  readonly #controller = new AbortController();
  readonly #caller: AbortSignal | undefined;
  readonly #stop: () => void;

  constructor(connection: AbortSignal, caller: AbortSignal | undefined) {
    this.#caller = caller;
    const first = caller?.aborted === true ? caller : connection.aborted ? connection : undefined;
    if (first !== undefined) {
      this.#controller.abort(first.reason);
      this.#stop = () => undefined;
      return;
    }
    const abort = (reason: unknown): void => {
      if (!this.#controller.signal.aborted) this.#controller.abort(reason);
    };
    const stopCaller = caller && onAbort(caller, () => abort(caller.reason));
    const stopConnection = onAbort(connection, () => abort(connection.reason));
    const timer = setTimeout(() => {
      abort(
        new ConnectionLossError({
          detail: `no answer within ${LOOK_ONCE_ANSWER_WAIT_MS} ms to a look-once call`,
        }),
      );
    }, LOOK_ONCE_ANSWER_WAIT_MS).unref();
    this.#stop = () => {
      clearTimeout(timer);
      stopCaller?.();
      stopConnection();
    };
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /**
   * True when `error` is why this signal gave up by itself (the connection went, no answer in
   * time): the call then answers like a timeout. The caller's own abort is not.
   */
  gaveUp(error: unknown): boolean {
    const { signal } = this.#controller;
    if (!signal.aborted || error !== signal.reason) return false;
    return !(this.#caller?.aborted === true && error === this.#caller.reason);
  }

  [Symbol.dispose](): void {
    this.#stop();
  }
}
