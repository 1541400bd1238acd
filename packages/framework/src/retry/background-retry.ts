import { performance } from 'node:perf_hooks';
import { isRetryable as isRetryableError } from '../errors/predicates.js';
import { abortableSleep } from '../async/abortable-sleep.js';
import { onAbort } from '../async/on-abort.js';
import { checkDelay, type RetryInfo } from './retry-loop.js';
import type { RetryPolicy } from './retry-policy.js';

/** Options of {@link BackgroundRetry}. */
export interface BackgroundRetryOptions {
  /** Decides whether and after how long a failed run is tried again. Required. */
  policy: RetryPolicy;
  /** Aborting it closes the scheduler, as `close()` does (the recipe's or the client's close). */
  signal?: AbortSignal | undefined;
  /** Which failures are retried at all. Default: `isRetryable` (the connection-class codes). */
  isRetryable?: ((error: unknown) => boolean) | undefined;
  /** Called before each wait, e.g. to log at debug level. If it throws, that ends the retrying. */
  onRetry?: ((info: RetryInfo) => void) | undefined;
  /**
   * Where a failure goes that retrying will not fix: a non-retryable error, or the last error
   * once the policy stops. The scheduler then idles until the next `kick()` (or runs again at
   * once if kicked during that run). Never called after close. Default: none (the failure is dropped); recipes pass their unhandled-errors stream.
   */
  onError?: ((error: unknown) => void) | undefined;
  /**
   * Let the process exit while a retry waits (the default sleep's timer is unref'd). Default
   * true: a pending background retry should not hold a process that is otherwise done.
   */
  unref?: boolean | undefined;
  /** Waits `ms`, rejecting when `signal` aborts. Default: a timer. Injectable for unit tests. */
  sleep?: ((ms: number, signal: AbortSignal) => Promise<void>) | undefined;
  /** A monotonic clock in milliseconds. Default: `performance.now`. */
  now?: (() => number) | undefined;
}

/**
 * Runs a background task now and, after each retryable failure, again after the delay the retry
 * policy gives. This is the background sibling of `retryLoop`: the one place recipes wait between
 * background attempts, instead of each keeping its own timer and counter.
 *
 * - The policy sees the failures since the last success (`retryCount` 0 after the first one) and
 *   the time since the first of them; a successful run starts the count again.
 * - At most one run and one wait exist at a time; the wait's timer is unref'd unless told
 *   not. `kick()` runs at once, cancelling the wait (a reconnect); a kick during a run makes
 *   one more run right after it, so no kick is lost.
 * - `close()` (or the signal) cancels the wait and aborts the signal the task receives; the
 *   outcome of a run still in flight is ignored. Nothing here ever rejects unhandled.
 *
 * @example
 * const retry = new BackgroundRetry((signal) => ensureNode(signal), { policy, signal, onError });
 * retry.kick();                                   // now, and on every reconnect
 */
export class BackgroundRetry {
  readonly #task: (signal: AbortSignal) => Promise<void>;
  readonly #options: BackgroundRetryOptions;
  readonly #closed = new AbortController();
  #failures = 0;
  #firstFailureMs = 0;
  #running = false;
  #kickedWhileRunning = false;
  /** Aborting it cancels the one pending wait; undefined when nothing waits. */
  #wait: AbortController | undefined;

  /** @param task one run; fails by rejecting, and may stop early when its signal aborts. */
  constructor(task: (signal: AbortSignal) => Promise<void>, options: BackgroundRetryOptions) {
    this.#task = task;
    this.#options = options;
    const { signal } = options;
    if (signal?.aborted) this.close();
    else if (signal !== undefined) onAbort(signal, () => this.close());
  }

  /** Failures since the last success (or `reset()`). */
  get failures(): number {
    return this.#failures;
  }

  /** True while a run is in flight. */
  get running(): boolean {
    return this.#running;
  }

  /** True while a retry waits for its delay. */
  get waiting(): boolean {
    return this.#wait !== undefined;
  }

  /** True once closed. */
  get closed(): boolean {
    return this.#closed.signal.aborted;
  }

  /** Runs the task now: cancels a pending wait; during a run, runs again once it ends. */
  kick(): void {
    if (this.closed) return;
    if (this.#running) {
      this.#kickedWhileRunning = true;
      return;
    }
    this.#cancelWait();
    void this.#run();
  }

  /** Forgets the failures so far, e.g. after success was seen outside the task. */
  reset(): void {
    this.#failures = 0;
  }

  /** Stops for good: cancels the wait and aborts the task's signal. Twice is a no-op. */
  close(): void {
    if (this.closed) return;
    this.#cancelWait();
    this.#closed.abort(new Error('BackgroundRetry closed'));
  }

  async #run(): Promise<void> {
    this.#running = true;
    this.#kickedWhileRunning = false;
    const now = this.#options.now ?? (() => performance.now());
    const startMs = now();
    let failure: { error: unknown } | undefined;
    try {
      await this.#task(this.#closed.signal);
    } catch (error) {
      failure = { error };
    } finally {
      this.#running = false;
    }
    if (this.closed) return;
    if (failure === undefined) {
      this.#failures = 0;
    } else {
      if (this.#failures === 0) this.#firstFailureMs = startMs;
      const delayMs = this.#delayAfter(failure.error, now() - this.#firstFailureMs);
      if (delayMs !== undefined && !this.#kickedWhileRunning) {
        this.#sleepThenRun(delayMs);
        return;
      }
    }
    // A kick that came during the run is a new trigger, whatever the run's outcome.
    if (this.#kickedWhileRunning) this.kick();
  }

  /** Counts the failure and asks the policy; undefined (after reporting) when retrying stops. */
  #delayAfter(error: unknown, elapsedMs: number): number | undefined {
    const { policy, onRetry } = this.#options;
    const isRetryable = this.#options.isRetryable ?? isRetryableError;
    let failure = error;
    try {
      if (isRetryable(error)) {
        const retryCount = this.#failures++;
        const delayMs = policy.nextDelayMs({ retryCount, elapsedMs, error });
        if (delayMs !== undefined) {
          checkDelay(delayMs, error);
          onRetry?.({ retryCount, delayMs, elapsedMs, error });
          return delayMs;
        }
      }
    } catch (thrown) {
      failure = thrown;
    }
    try {
      this.#options.onError?.(failure);
    } catch {
      // onError is the last resort (the unhandled-errors stream); a failure there has nowhere
      // left to go, and rethrowing here would be an unhandled rejection.
    }
    return undefined;
  }

  #sleepThenRun(delayMs: number): void {
    const wait = new AbortController();
    this.#wait = wait;
    const unref = this.#options.unref ?? true;
    const sleep = this.#options.sleep ?? ((ms, signal) => abortableSleep(ms, signal, { unref }));
    sleep(delayMs, wait.signal).then(
      () => {
        if (this.#wait !== wait) return;
        this.#wait = undefined;
        if (!this.closed) void this.#run();
      },
      () => {
        // Cancelled by kick() or close(), which already moved on.
      },
    );
  }

  #cancelWait(): void {
    this.#wait?.abort();
    this.#wait = undefined;
  }
}
