import { OperationTimeoutError } from '../errors/zookeeper-error-classes.js';
import { onAbort } from '../async/on-abort.js';

/**
 * The requests sent and not answered yet. Each settles once: with its reply, or rejected when
 * it is overdue (OPERATION_TIMEOUT, outcome unknown), when its caller's signal aborts (with
 * the signal's reason), or when the connection closes (`failAll`). So a request ends on time
 * by itself, and the client's retry loop need not race each attempt against the caller's
 * signal and the close (a promise and two listeners per request).
 *
 * A deadline is a plain unref'd timer: a timer set and cleared per request costs about what a
 * shared sweep did (docs/benchmarks.md, "Own helpers kept, and why").
 */
export class InFlightRequests {
  readonly #timeoutMs: number;
  /** How to fail each request in flight. */
  readonly #failures = new Set<(error: unknown) => void>();
  /** What failAll failed them with: a request tracked after it fails at once. */
  #closedWith: { readonly error: unknown } | undefined;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Settles like `request`, or rejects once it is overdue, `signal` aborts or the connection
   * closes. `failureOf` maps the request's own failure (not an abort, a deadline or the close).
   */
  track<T>(
    request: Promise<T>,
    signal: AbortSignal | undefined,
    failureOf: (error: unknown) => unknown,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const finish = (): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(deadline);
        stopListening?.();
        this.#failures.delete(fail);
        return true;
      };
      const fail = (error: unknown): void => {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on unchanged
        if (finish()) reject(error);
      };
      // Unref'd: what waits is an answer on a socket, which keeps the process alive itself.
      const deadline = setTimeout(() => {
        fail(new OperationTimeoutError({ detail: `no reply within ${this.#timeoutMs} ms` }));
      }, this.#timeoutMs).unref();
      this.#failures.add(fail);
      const stopListening =
        signal === undefined ? undefined : onAbort(signal, () => fail(signal.reason));
      if (signal?.aborted === true) fail(signal.reason);
      else if (this.#closedWith !== undefined) fail(this.#closedWith.error);
      request.then(
        (value) => {
          if (finish()) resolve(value);
        },
        (error: unknown) => fail(failureOf(error)),
      );
    });
  }

  /** Fails every request in flight with `error` (the connection closed), clearing their timers. */
  failAll(error: unknown): void {
    this.#closedWith ??= { error };
    for (const fail of [...this.#failures]) fail(error);
  }
}
