import type { Logger } from './logger.js';

/**
 * How connection problems (ConnectionLoss, timeouts, retries during an outage) are logged.
 *
 * - `'all'`: every issue at `error` (Curator's default).
 * - `'first-as-error'`: the first issue of an outage at `error`, the rest at `debug` until
 *   reconnected (Curator's `curator-log-only-first-connection-issue-as-error-level`).
 * - `'off'`: connection problems are not logged (Curator's `curator-dont-log-connection-problems`).
 */
export type ConnectionIssueLogging = 'all' | 'first-as-error' | 'off';

/** Every {@link ConnectionIssueLogging} mode, for validation and documentation. */
export const CONNECTION_ISSUE_LOGGING_MODES: readonly ConnectionIssueLogging[] = Object.freeze([
  'all',
  'first-as-error',
  'off',
]);

/** Options for {@link ConnectionIssueLogger}. */
export interface ConnectionIssueLoggerOptions {
  /**
   * Default `'first-as-error'`. Curator logs every issue at error by default, but an outage
   * of a few seconds produces one issue per retried operation per recipe: hundreds of identical
   * error lines that bury the one that matters and page whoever alerts on error volume. The
   * first error says the outage began; the reconnect line says it ended and how many issues
   * there were; the rest is available at `debug`.
   */
  mode?: ConnectionIssueLogging;
}

/**
 * Logs connection problems the Curator way, switchable (see {@link ConnectionIssueLogging}).
 *
 * The client calls {@link issue} for each connection problem and {@link reconnected} when the
 * connection is back (CONNECTED or RECONNECTED), which ends the outage.
 */
export class ConnectionIssueLogger {
  readonly #logger: Logger;
  readonly #mode: ConnectionIssueLogging;
  #issuesThisOutage = 0;

  /** @throws RangeError if `options.mode` is not one of {@link CONNECTION_ISSUE_LOGGING_MODES}. */
  constructor(logger: Logger, options: ConnectionIssueLoggerOptions = {}) {
    const mode = options.mode ?? 'first-as-error';
    // Checked at runtime too: the option usually comes from configuration, not typed code.
    if (!CONNECTION_ISSUE_LOGGING_MODES.includes(mode)) {
      throw new RangeError(
        `connectionIssueLogging must be one of ${CONNECTION_ISSUE_LOGGING_MODES.map((m) => `'${m}'`).join(', ')}; got ${JSON.stringify(mode)}`,
      );
    }
    this.#logger = logger;
    this.#mode = mode;
  }

  /** The mode in effect. */
  get mode(): ConnectionIssueLogging {
    return this.#mode;
  }

  /** Issues reported since the last {@link reconnected} (or since construction). */
  get issueCount(): number {
    return this.#issuesThisOutage;
  }

  /** Reports one connection problem; logs it at the level the mode asks for. */
  issue(message: string, meta?: Record<string, unknown>): void {
    this.#issuesThisOutage += 1;
    switch (this.#mode) {
      case 'off':
        return;
      case 'all':
        this.#logger.error(message, meta);
        return;
      case 'first-as-error':
        if (this.#issuesThisOutage === 1) this.#logger.error(message, meta);
        else this.#logger.debug(message, meta);
        return;
    }
  }

  /**
   * Ends the outage: the next issue is the first of a new one. Logs
   * `connection restored after N issues` at info when there were issues (not in `'off'` mode,
   * which keeps connection trouble out of the log entirely).
   */
  reconnected(): void {
    const issues = this.#issuesThisOutage;
    this.#issuesThisOutage = 0;
    if (issues > 0 && this.#mode !== 'off') {
      this.#logger.info(
        `connection restored after ${issues} ${issues === 1 ? 'issue' : 'issues'}`,
        {
          issues,
        },
      );
    }
  }
}
