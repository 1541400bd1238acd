import { OperationTimeoutError } from '../errors/zookeeper-error-classes.js';
import { onAbort } from '../async/on-abort.js';
import type { ReplySettler } from './nzc-adapter.js';

/**
 * The requests sent and not answered yet. Each settles once: with its reply, or rejected when
 * it is overdue (OPERATION_TIMEOUT, outcome unknown), when its caller's signal aborts (with
 * the signal's reason), or when the connection closes (`failAll`). So a request ends on time
 * by itself, and the client's retry loop need not race each attempt against the caller's
 * signal and the close (a promise and two listeners per request).
 */
export class InFlightRequests {
  readonly #timeoutMs: number;
  readonly #inFlight = new Set<Failing>();
  /** What failAll failed them with: a request tracked after it fails at once. */
  #closedWith: { readonly error: unknown } | undefined;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /**
   * A request about to be sent: the handle settles it with its reply (`failureOf` maps the
   * request's own failure), unless it is overdue, `signal` aborts or the connection closes
   * first.
   */
  start<T>(
    signal: AbortSignal | undefined,
    failureOf: (error: unknown) => unknown,
  ): InFlightRequest<T> {
    const request = new InFlightRequest<T>(this.#inFlight, failureOf, this.#timeoutMs, signal);
    if (this.#closedWith !== undefined) request.fail(this.#closedWith.error);
    return request;
  }

  /** Fails every request in flight with `error` (the connection closed), clearing their timers. */
  failAll(error: unknown): void {
    this.#closedWith ??= { error };
    for (const request of [...this.#inFlight]) request.fail(error);
  }
}

/** What failAll needs of a request. */
interface Failing {
  fail(error: unknown): void;
}

/** One request sent and not answered yet; its promise settles once. */
export class InFlightRequest<T> implements ReplySettler<T> {
  readonly promise: Promise<T>;
  readonly #deadline: NodeJS.Timeout;
  readonly #stopListening: (() => void) | undefined;
  readonly #inFlight: Set<Failing>;
  readonly #failureOf: (error: unknown) => unknown;
  #resolve!: (value: T) => void;
  #reject!: (error: unknown) => void;
  #settled = false;

  /** In flight from now on: in `inFlight`, with its deadline and its signal's listener. */
  constructor(
    inFlight: Set<Failing>,
    failureOf: (error: unknown) => unknown,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ) {
    this.#inFlight = inFlight;
    this.#failureOf = failureOf;
    this.promise = new Promise<T>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // Unref'd: what waits is an answer on a socket, which keeps the process alive itself.
    this.#deadline = setTimeout(() => {
      this.fail(new OperationTimeoutError({ detail: `no reply within ${timeoutMs} ms` }));
    }, timeoutMs).unref();
    inFlight.add(this);
    this.#stopListening =
      signal === undefined ? undefined : onAbort(signal, () => this.fail(signal.reason));
    if (signal?.aborted === true) this.fail(signal.reason);
  }

  /** The reply's value. */
  resolve(value: T): void {
    if (this.#finish()) this.#resolve(value);
  }

  /** The request's own failure (the server's answer, the connection gone). */
  reject(error: unknown): void {
    if (!this.#settled) this.fail(this.#failureOf(error));
  }

  /** Ends the wait with `error` as it is (a deadline, an abort, the close). */
  fail(error: unknown): void {
    if (this.#finish()) this.#reject(error);
  }

  #finish(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    clearTimeout(this.#deadline);
    this.#stopListening?.();
    this.#inFlight.delete(this);
    return true;
  }
}
