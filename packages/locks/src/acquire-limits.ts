// What one acquire call may spend, made once in the public acquire and passed down to every
// request and wait of the call: its Deadline (the caller's timeout and signal).
//
// acquire(0) needs one thing more. A deadline of 0 would abort its own first read, and no
// deadline at all would let an outage that starts mid-call hold it for the whole retry policy.
// Its requests are bounded by the connection they go out on instead (its create gets that
// connection's signal; its first read is raced against it): on a connection that is up they
// take a round trip, and a loss answers false, the same answer as any acquire whose time ran
// out.
import { Deadline, type ConnectionStream } from '@zkrecipes/framework/recipe-support';

/** One acquire's deadline, and the signal its requests get. */
export class AcquireLimits implements Disposable {
  /** The call's deadline: the caller's timeout and signal. */
  readonly deadline: Deadline;
  /** acquire(0): it answers from what it reads, never waits, and only uses a live connection. */
  readonly tryOnly: boolean;
  readonly #watch: ConnectionStream;
  #connection: AbortSignal | undefined;
  #signal: AbortSignal | undefined;

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
    if (this.#connection === undefined) {
      const connection = this.#watch.connectionSignal();
      const caller = this.deadline.callerSignal;
      this.#connection = connection;
      this.#signal = caller === undefined ? connection : AbortSignal.any([caller, connection]);
    }
    return this.#signal;
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
    const connection = this.#connection;
    return (
      this.deadline.isExpiry(error) || (connection?.aborted === true && error === connection.reason)
    );
  }

  /** Throws the caller's reason when the caller's signal has aborted. */
  throwIfAborted(): void {
    this.deadline.throwIfAborted();
  }

  [Symbol.dispose](): void {
    this.deadline.dispose();
  }
}
