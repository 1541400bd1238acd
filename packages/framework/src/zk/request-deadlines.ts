import { OperationTimeoutError } from '../errors/zookeeper-error-classes.js';

interface Tracked {
  readonly deadlineMs: number;
  readonly reject: (error: Error) => void;
}

/**
 * Puts a deadline on every sent request without a timer per request: one sweep timer runs
 * while requests are in flight and fails the overdue ones with OPERATION_TIMEOUT (outcome
 * unknown). A per-request setTimeout plus Promise.race cost more than the request itself on a
 * busy client; a deadline that fires up to a sweep interval late costs nothing that matters.
 */
export class RequestDeadlines {
  readonly #timeoutMs: number;
  readonly #sweepMs: number;
  readonly #inFlight = new Set<Tracked>();
  #timer: NodeJS.Timeout | undefined;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
    this.#sweepMs = Math.max(10, Math.min(250, Math.floor(timeoutMs / 10)));
  }

  /** Settles like `request`, or rejects with OperationTimeoutError once it is overdue. */
  track<T>(request: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const tracked: Tracked = { deadlineMs: performance.now() + this.#timeoutMs, reject };
      this.#inFlight.add(tracked);
      this.#timer ??= setInterval(() => this.#sweep(), this.#sweepMs).unref();
      request.then(
        (value) => {
          if (this.#inFlight.delete(tracked)) resolve(value);
        },
        (error: unknown) => {
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on unchanged
          if (this.#inFlight.delete(tracked)) reject(error);
        },
      );
    });
  }

  /** Stops the sweep timer (on close); requests still in flight settle on their own. */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #sweep(): void {
    const now = performance.now();
    for (const tracked of this.#inFlight) {
      if (tracked.deadlineMs > now) continue;
      this.#inFlight.delete(tracked);
      tracked.reject(
        new OperationTimeoutError({ detail: `no reply within ${this.#timeoutMs} ms` }),
      );
    }
    if (this.#inFlight.size === 0) this.stop();
  }
}
