// Kept over AbortSignal.timeout: docs/benchmarks.md "Own helpers kept, and why".
// The signals that abort when a call's time runs out. Making an AbortSignal and its timer costs
// more than the rest of an uncontended lock acquire's own work (measured: the largest single
// cost between a reply and the next request), and a busy service starts many calls with the
// same timeout a few milliseconds apart, together or one after another. So calls whose
// deadlines fall within a small slack of each other share one signal, which aborts at the
// latest of them: never before a call's own deadline, and at most EXPIRY_SLACK_MAX_MS (or 1%
// of its timeout, if less) after it. The newest expiry stays joinable after its calls ended;
// its timer stops once a newer one replaces it with no call left on it.

/** The most a shared expiry may fire after a call's own deadline. */
import { performance } from 'node:perf_hooks';

export const EXPIRY_SLACK_MAX_MS = 10;

/** One shared expiry: its signal aborts at `atMs`; `members` calls still use it. */
export class SharedExpiry {
  readonly atMs: number;
  readonly controller = new AbortController();
  #members = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(atMs: number) {
    this.atMs = atMs;
    this.#expireAt();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  join(): void {
    this.#members += 1;
  }

  /**
   * A member's call is over. With the last one gone the timer goes too, unless new calls may
   * still join (it is the current one): calls made one after another share it then.
   */
  leave(): void {
    this.#members -= 1;
    if (current !== this) this.retireIfUnused();
  }

  /** Stops the timer when no call uses this expiry any more (nobody to abort). */
  retireIfUnused(): void {
    if (this.#members > 0) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #expireAt(): void {
    // A timer counts from the event loop's clock as of the start of the current turn, so it
    // can fire early by however long that turn had run: never abort before atMs.
    const leftMs = this.atMs - performance.now();
    if (leftMs > 0) {
      this.#timer = setTimeout(() => this.#expireAt(), Math.ceil(leftMs)).unref();
      return;
    }
    this.#timer = undefined;
    if (current === this) current = undefined;
    this.controller.abort(new DOMException('the deadline passed', 'TimeoutError'));
  }
}

/** The expiry new calls may join (the newest). */
let current: SharedExpiry | undefined;

/**
 * The expiry for a call that ends at `atMs` after `timeoutMs`: the current one when it aborts
 * within the call's slack after `atMs` (and not before it), else a new one, which becomes the
 * current. The caller joins it and must `leave()` it when the call is over.
 */
export function expiryFor(atMs: number, timeoutMs: number): SharedExpiry {
  const slackMs = Math.min(EXPIRY_SLACK_MAX_MS, timeoutMs / 100);
  const shared = current;
  if (shared !== undefined && shared.atMs >= atMs && shared.atMs <= atMs + slackMs) {
    shared.join();
    return shared;
  }
  shared?.retireIfUnused();
  const created = new SharedExpiry(atMs + slackMs);
  current = created;
  created.join();
  return created;
}
