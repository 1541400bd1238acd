// One object for "until when, and until what" a recipe call may wait: the caller's timeout and
// signal together. The recipe creates it once per call and passes it down: every framework
// operation of the call gets `deadline.signal`, every wait `deadline.atMs`, instead of each
// layer turning a timeout into a deadline and back.

import { performance } from 'node:perf_hooks';
import { expiryFor, type SharedExpiry } from './expiry-signals.js';

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
  readonly #timeoutMs: number | undefined;
  #expiry: SharedExpiry | undefined;
  #signal: AbortSignal | undefined;
  #disposed = false;

  private constructor(
    atMs: number | undefined,
    timeoutMs: number | undefined,
    callerSignal: AbortSignal | undefined,
  ) {
    this.atMs = atMs;
    this.#timeoutMs = timeoutMs;
    this.callerSignal = callerSignal;
  }

  /** A deadline `timeoutMs` from now, also ended by `signal`. */
  static of(options: DeadlineOptions = {}): Deadline {
    const { timeoutMs, signal } = options;
    return new Deadline(
      timeoutMs === undefined ? undefined : performance.now() + timeoutMs,
      timeoutMs,
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
   * when the time runs out (at most 10 ms, or 1% of the timeout, after it: calls with nearby
   * deadlines share one signal, see expiry-signals.ts); undefined when there is neither
   * (nothing to pass down). Made on first use; {@link dispose} lets go of it.
   */
  get signal(): AbortSignal | undefined {
    if (this.atMs === undefined) return this.callerSignal;
    if (this.#signal === undefined) {
      const expiry = expiryFor(this.atMs, this.#timeoutMs ?? 0);
      this.#expiry = expiry;
      if (this.#disposed) expiry.leave(); // asked after the call was over: hold nothing
      this.#signal =
        this.callerSignal === undefined
          ? expiry.signal
          : AbortSignal.any([this.callerSignal, expiry.signal]);
    }
    return this.#signal;
  }

  /** True when `error` is this deadline's own expiry (not the caller's abort, not a failure). */
  isExpiry(error: unknown): boolean {
    const own = this.#expiry?.signal;
    return own?.aborted === true && error === own.reason && this.callerSignal?.aborted !== true;
  }

  /** Throws the caller's reason when the caller's signal has aborted. */
  throwIfAborted(): void {
    this.callerSignal?.throwIfAborted();
  }

  /** The call is over: lets go of the expiry (its timer stops with the last call on it). */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#expiry?.leave();
  }

  /** Calls {@link dispose}, so `using deadline = Deadline.of(...)` lets go on exit. */
  [Symbol.dispose](): void {
    this.dispose();
  }
}
