/** What a {@link RetryPolicy} decides on: the state of the operation after a failure. */
export interface RetryAttempt {
  /** How many retries were already made: 0 after the first failure. */
  readonly retryCount: number;
  /** Milliseconds since the first attempt started. */
  readonly elapsedMs: number;
  /** The error the latest attempt failed with. */
  readonly error: unknown;
}

/**
 * Decides whether, and after how long, a failed operation is tried again (Curator's
 * `RetryPolicy`). A policy is pure: it computes a delay and never sleeps, so it can be tested
 * without clocks and shared between clients; the single retry loop (`retryLoop`) does the waiting.
 * The loop asks the policy only about retryable errors.
 */
export interface RetryPolicy {
  /**
   * The milliseconds to wait before the next attempt, or `undefined` to stop and let the
   * latest error reach the caller.
   */
  nextDelayMs(attempt: RetryAttempt): number | undefined;
}

/** Something with a `warn` method: a winston logger, `console`, or a test double. */
export interface RetryWarningLogger {
  /** Called with a one-line warning; the return value is ignored. */
  warn(message: string): void;
}
