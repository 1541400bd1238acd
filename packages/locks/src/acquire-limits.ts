// What one acquire call may spend, made once in the public acquire and passed down to every
// request and wait of the call: its Deadline (the caller's timeout and signal).
//
// acquire(0) needs one thing more. A deadline of 0 would abort its own first read, and no
// deadline at all would let an outage that starts mid-call hold it for the whole retry policy.
// Its requests are bounded by the connection they go out on instead (its create gets that
// connection's signal; its first read is raced against it): on a connection that is up they
// take a round trip, and a loss answers false, the same answer as any acquire whose time ran
// out. A connection that reads as up but does not answer (a paused server, a silent link) is
// only declared gone after 2/3 of the session timeout, so they also end after
// LOOK_ONCE_ANSWER_WAIT_MS without an answer.
import {
  Deadline,
  LOOK_ONCE_ANSWER_WAIT_MS,
  noAnswerToLookOnce,
  onAbort,
  type ConnectionStream,
} from '@zkrecipes/framework/recipe-support';

/** One acquire's deadline, and the signal its requests get. */
export class AcquireLimits implements Disposable {
  /** The call's deadline: the caller's timeout and signal. */
  readonly deadline: Deadline;
  /** acquire(0): it answers from what it reads, never waits, and only uses a live connection. */
  readonly tryOnly: boolean;
  readonly #watch: ConnectionStream;
  /** acquire(0)'s own signal: the connection's loss, the caller's abort or no answer in time. */
  #tryOnly: { controller: AbortController; dispose: () => void } | undefined;

  private constructor(deadline: Deadline, tryOnly: boolean, watch: ConnectionStream) {
    this.deadline = deadline;
    this.tryOnly = tryOnly;
    this.#watch = watch;
  }

  /** The limits of `acquire(timeoutMs, { signal })` on `watch`'s client. */
  static of(
    watch: ConnectionStream,
    timeoutMs: number | undefined,
    signal: AbortSignal | undefined,
  ): AcquireLimits {
    return new AcquireLimits(Deadline.of({ timeoutMs, signal }), timeoutMs === 0, watch);
  }

  /**
   * What every request of the call gets: the deadline's signal (undefined without a timeout or
   * a signal: nothing to pay for), or for acquire(0) the connection's signal (with the
   * caller's).
   */
  get signal(): AbortSignal | undefined {
    if (!this.tryOnly) return this.deadline.signal;
    this.#tryOnly ??= this.#tryOnlySignal();
    return this.#tryOnly.controller.signal;
  }

  /** True once waiting is over: always for acquire(0), else when the deadline has passed. */
  get expired(): boolean {
    return this.deadline.expired;
  }

  /**
   * True when `error` only says the time given ran out (the deadline passed, or acquire(0)'s
   * connection went): the acquire then answers false. The caller's own abort is not.
   */
  ranOut(error: unknown): boolean {
    const own = this.#tryOnly?.controller.signal;
    const caller = this.deadline.callerSignal;
    return (
      this.deadline.isExpiry(error) ||
      (own?.aborted === true &&
        error === own.reason &&
        !(caller?.aborted === true && error === caller.reason))
    );
  }

  /** Throws the caller's reason when the caller's signal has aborted. */
  throwIfAborted(): void {
    this.deadline.throwIfAborted();
  }

  [Symbol.dispose](): void {
    this.deadline.dispose();
    this.#tryOnly?.dispose();
  }

  #tryOnlySignal(): { controller: AbortController; dispose: () => void } {
    const controller = new AbortController();
    const connection = this.#watch.connectionSignal();
    const caller = this.deadline.callerSignal;
    const abort = (reason: unknown): void => {
      if (!controller.signal.aborted) controller.abort(reason);
    };
    for (const signal of [caller, connection]) {
      if (signal?.aborted === true) {
        abort(signal.reason);
        return { controller, dispose: () => undefined };
      }
    }
    const stopCaller = caller && onAbort(caller, () => abort(caller.reason));
    const stopConnection = onAbort(connection, () => abort(connection.reason));
    const timer = setTimeout(() => abort(noAnswerToLookOnce()), LOOK_ONCE_ANSWER_WAIT_MS).unref();
    return {
      controller,
      dispose: () => {
        clearTimeout(timer);
        stopCaller?.();
        stopConnection();
      },
    };
  }
}
