import { performance } from 'node:perf_hooks';

/** What {@link EventLoopStallDetector} reports for one stall. */
export interface EventLoopStall {
  /**
   * How much later than expected the check ran: a lower bound on how long the event loop was
   * blocked (the stall may have begun up to `checkIntervalMs` before the check was due).
   */
  stallMs: number;
  /** The `now()` reading when the stall was noticed (default clock: `performance.now()`). */
  detectedAt: number;
}

/** Options for {@link EventLoopStallDetector}. */
export interface EventLoopStallDetectorOptions {
  /** How often the timer checks; also the resolution of `stallMs`. Default 100. */
  checkIntervalMs?: number;
  /** A check that runs more than this late is a stall. Required; adjustable with `setThresholdMs`. */
  thresholdMs: number;
  /** Called once per stall, on the first check after the loop is free again. */
  onStall: (info: EventLoopStall) => void;
  /** Receives what `onStall` throws; without it such errors are dropped (never rethrown). */
  onError?: (error: unknown) => void;
  /**
   * The clock, in ms. Default `performance.now()`: monotonic, so a wall-clock adjustment (NTP,
   * a laptop waking up) is not mistaken for a stall.
   */
  now?: () => number;
}

/**
 * Detects event-loop stalls: Node's equivalent of a JVM GC pause.
 *
 * ZooKeeper keeps a session alive with heartbeats sent from the event loop. A long synchronous
 * stretch (a big JSON.parse, a sync crypto call, a busy loop) sends none, and the server may
 * expire the session while the client still believes it holds its locks. After such a stretch
 * nothing the client knew can be trusted until the server answers again; the client reacts to
 * `onStall` by treating the connection as SUSPENDED until proven alive.
 *
 * Measured as timer drift: a timer set for `checkIntervalMs` that fires `stallMs` late. The timer
 * is unref'd, so the detector never keeps the process alive.
 */
export class EventLoopStallDetector {
  readonly #checkIntervalMs: number;
  #thresholdMs: number;
  readonly #onStall: (info: EventLoopStall) => void;
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  #lastCheck = 0;

  constructor(options: EventLoopStallDetectorOptions) {
    const checkIntervalMs = options.checkIntervalMs ?? 100;
    assertPositive('checkIntervalMs', checkIntervalMs);
    assertPositive('thresholdMs', options.thresholdMs);
    this.#checkIntervalMs = checkIntervalMs;
    this.#thresholdMs = options.thresholdMs;
    this.#onStall = options.onStall;
    this.#onError = options.onError;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Whether the detector is running. */
  get running(): boolean {
    return this.#timer !== undefined;
  }

  /** The current threshold in ms. */
  get thresholdMs(): number {
    return this.#thresholdMs;
  }

  /**
   * Changes the threshold; takes effect at the next check. The client sets it to a fraction of
   * the negotiated session timeout once connected, since that is only known then.
   */
  setThresholdMs(thresholdMs: number): void {
    assertPositive('thresholdMs', thresholdMs);
    this.#thresholdMs = thresholdMs;
  }

  /** Starts checking. @throws Error if already running (`stop()` first to restart). */
  start(): void {
    if (this.#timer !== undefined) throw new Error('EventLoopStallDetector is already running');
    this.#lastCheck = this.#now();
    this.#schedule();
  }

  /** Stops checking. Stopping a stopped detector is a no-op. */
  stop(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Same as {@link stop}, for `using`. */
  [Symbol.dispose](): void {
    this.stop();
  }

  // A chain of timeouts rather than setInterval: each check measures from the previous one, so
  // one late check is one stall, not a burst of catch-up ticks.
  #schedule(): void {
    this.#timer = setTimeout(() => this.#check(), this.#checkIntervalMs);
    this.#timer.unref();
  }

  #check(): void {
    const now = this.#now();
    const driftMs = now - this.#lastCheck - this.#checkIntervalMs;
    this.#lastCheck = now;
    this.#schedule();
    if (driftMs > this.#thresholdMs) {
      try {
        this.#onStall({ stallMs: driftMs, detectedAt: now });
      } catch (error) {
        this.#reportError(error);
      }
    }
  }

  #reportError(error: unknown): void {
    try {
      this.#onError?.(error);
    } catch {
      // The error sink itself failed; a detector must not take the process down over it.
    }
  }
}

function assertPositive(name: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive number of ms; got ${String(value)}`);
  }
}
