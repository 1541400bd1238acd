// What one acquire call may spend, made once in the public acquire and passed down to every
// request and wait of the call: its Deadline (the caller's timeout and signal).
//
// acquire(0) needs one thing more. A deadline of 0 would abort its own first read, and no
// deadline at all would let an outage that starts mid-call hold it for the whole retry policy.
// Its requests get a LookOnceSignal on the lock's connection instead: on a connection that is up
// they take a round trip, and a loss, or no answer in time, answers false, the same answer as
// any acquire whose time ran out.
import {
  Deadline,
  LookOnceSignal,
  type ConnectionStream,
} from '@zkrecipes/framework/recipe-support';

/** One acquire's deadline, and the signal its requests get. */
export class AcquireLimits implements Disposable {
  /** The call's deadline: the caller's timeout and signal. */
  readonly deadline: Deadline;
  /** acquire(0): it answers from what it reads, never waits, and only uses a live connection. */
  readonly tryOnly: boolean;
  readonly #watch: ConnectionStream;
  /** acquire(0)'s signal: the connection's loss, no answer in time or the caller's abort. */
  #lookOnce: LookOnceSignal | undefined;

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
   * a signal: nothing to pay for), or for acquire(0) a LookOnceSignal on the lock's connection
   * (with the caller's).
   */
  get signal(): AbortSignal | undefined {
    if (!this.tryOnly) return this.deadline.signal;
    this.#lookOnce ??= new LookOnceSignal(
      this.#watch.connectionSignal(),
      this.deadline.callerSignal,
      true,
    );
    return this.#lookOnce.signal;
  }

  /** True once waiting is over: always for acquire(0), else when the deadline has passed. */
  get expired(): boolean {
    return this.deadline.expired;
  }

  /**
   * True when `error` only says the time given ran out (the deadline passed, or acquire(0)'s
   * connection went or did not answer): the acquire then answers false. The caller's own abort is not.
   */
  ranOut(error: unknown): boolean {
    return this.deadline.isExpiry(error) || this.#lookOnce?.gaveUp(error) === true;
  }

  /** Throws the caller's reason when the caller's signal has aborted. */
  throwIfAborted(): void {
    this.deadline.throwIfAborted();
  }

  [Symbol.dispose](): void {
    this.deadline.dispose();
    this.#lookOnce?.[Symbol.dispose]();
  }
}
