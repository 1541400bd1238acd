// One object for "until when, and until what" a recipe call may wait: the caller's timeout and
// signal together. The recipe creates it once per call and passes it down: every framework
// operation of the call gets `deadline.signal`, every wait `deadline.atMs`, instead of each
// layer turning a timeout into a deadline and back.

/** Options of {@link Deadline.of}. */
export interface DeadlineOptions {
  /** Milliseconds from now; undefined means no time limit. */
  readonly timeoutMs?: number | undefined;
  /** The caller's signal; its reason is what the call rejects with. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * A call's deadline: a `performance.now()` instant (or none) and the caller's signal. Its
 * {@link signal} aborts when either ends, so framework operations given it stop waiting for a
 * connection, between retries and in flight. When the time runs out, the signal's reason is a
 * `TimeoutError` DOMException that {@link isExpiry} recognises, so a recipe can answer
 * `false` where its contract says so and pass any other error on.
 */
export class Deadline {
  /** When the time runs out (`performance.now()` clock); undefined without a time limit. */
  readonly atMs: number | undefined;
  /** The caller's own signal. */
  readonly callerSignal: AbortSignal | undefined;
  #controller: AbortController | undefined;
  #signal: AbortSignal | undefined;
  #timer: NodeJS.Timeout | undefined;

  private constructor(atMs: number | undefined, callerSignal: AbortSignal | undefined) {
    this.atMs = atMs;
    this.callerSignal = callerSignal;
  }

  /** A deadline `timeoutMs` from now, also ended by `signal`. */
  static of(options: DeadlineOptions = {}): Deadline {
    const { timeoutMs, signal } = options;
    return new Deadline(
      timeoutMs === undefined ? undefined : performance.now() + timeoutMs,
      signal,
    );
  }

  /** Milliseconds left (0 once passed); undefined without a time limit. */
  remainingMs(): number | undefined {
    return this.atMs === undefined ? undefined : Math.max(0, this.atMs - performance.now());
  }

  /** True once the time has run out (whether or not anyone looked at the signal). */
  get expired(): boolean {
    return this.atMs !== undefined && performance.now() >= this.atMs;
  }

  /**
   * Aborts with the caller's reason when the caller's signal aborts, and with a TimeoutError
   * when the time runs out; undefined when there is neither (nothing to pass down). Its timer
   * starts on first use and ends with {@link dispose}.
   */
  get signal(): AbortSignal | undefined {
    if (this.atMs === undefined) return this.callerSignal;
    if (this.#signal === undefined) {
      const controller = new AbortController();
      this.#controller = controller;
      const atMs = this.atMs;
      const expire = (): void => {
        // A timer counts from the event loop's clock as of the start of the current turn, so
        // it can fire early by however long that turn had run: never abort before atMs.
        const leftMs = atMs - performance.now();
        if (leftMs > 0) this.#timer = setTimeout(expire, Math.ceil(leftMs)).unref();
        else controller.abort(new DOMException('the deadline passed', 'TimeoutError'));
      };
      expire();
      this.#signal =
        this.callerSignal === undefined
          ? controller.signal
          : AbortSignal.any([this.callerSignal, controller.signal]);
    }
    return this.#signal;
  }

  /** True when `error` is this deadline's own expiry (not the caller's abort, not a failure). */
  isExpiry(error: unknown): boolean {
    const own = this.#controller?.signal;
    return own?.aborted === true && error === own.reason && this.callerSignal?.aborted !== true;
  }

  /** Throws the caller's reason when the caller's signal has aborted. */
  throwIfAborted(): void {
    this.callerSignal?.throwIfAborted();
  }

  /** Stops the timer (the call is over). */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Calls {@link dispose}, so `using deadline = Deadline.of(...)` stops the timer on exit. */
  [Symbol.dispose](): void {
    this.dispose();
  }
}
