import { performance } from 'node:perf_hooks';

/**
 * Many deadlines on one timer: a callback given to `after` runs once its delay has passed, up
 * to one sweep interval late, unless cancelled first. A timer per deadline costs a busy client
 * more than the request it guards (a Timeout object, a list insert, an async-hooks init when
 * any AsyncLocalStorage is in use); a set entry and one interval that runs only while
 * something is due cost next to nothing. Used where lateness of a fraction of the delay does
 * not matter: a request's deadline, how long a release waits for its answer.
 */
export class DueSweep {
  readonly #sweepMs: number;
  readonly #due = new Set<Due>();
  #timer: NodeJS.Timeout | undefined;

  /** `sweepMs`: how often due callbacks are looked for (how late one may run). */
  constructor(sweepMs: number) {
    this.#sweepMs = sweepMs;
  }

  /**
   * Calls `onDue` once `delayMs` has passed (at most a sweep later). Returns the cancel. The
   * interval does not keep the process alive: what waits is an answer on a socket, which does.
   */
  after(delayMs: number, onDue: () => void): () => void {
    const due: Due = { atMs: performance.now() + delayMs, onDue };
    this.#due.add(due);
    this.#timer ??= setInterval(() => this.#sweep(), this.#sweepMs).unref();
    return () => {
      this.#due.delete(due);
    };
  }

  /** Stops the interval and drops what is due; nothing queued runs any more. */
  stop(): void {
    this.#due.clear();
    this.#stopTimer();
  }

  #stopTimer(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #sweep(): void {
    const now = performance.now();
    for (const due of this.#due) {
      if (due.atMs > now) continue;
      this.#due.delete(due);
      due.onDue();
    }
    if (this.#due.size === 0) this.#stopTimer();
  }
}

interface Due {
  readonly atMs: number;
  readonly onDue: () => void;
}
