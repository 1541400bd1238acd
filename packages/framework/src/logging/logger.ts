/**
 * The logger the framework and the recipes write to: the subset of winston's API we call.
 *
 * A `winston.Logger` satisfies it structurally, so `createFramework({ logger: winston.createLogger(...) })`
 * needs no adapter; so does any object with these five methods (pino and bunyan need a two-line
 * wrapper because their argument order is `(meta, message)`).
 *
 * Conventions the framework follows when it logs (so filters and dashboards can rely on them):
 * - components log through `logger.child({ component, path })`, e.g.
 *   `{ component: 'InterProcessMutex', path: '/app/lock' }`;
 * - state transitions at `info`, retries at `debug`, problems the caller cannot see at
 *   `warn`/`error`; nothing that is also thrown to the caller is logged.
 *
 * Return values are ignored (winston returns itself for chaining), hence `void`.
 */
export interface Logger {
  /** A failure the caller cannot see, e.g. a background retry that gave up. */
  error(message: string, meta?: Record<string, unknown>): void;
  /** A problem the framework worked around, e.g. a throwing listener. */
  warn(message: string, meta?: Record<string, unknown>): void;
  /** A state transition, e.g. a connection state change or a lock acquired. */
  info(message: string, meta?: Record<string, unknown>): void;
  /** Detail for troubleshooting, e.g. each retry. */
  debug(message: string, meta?: Record<string, unknown>): void;
  /** A logger that adds `meta` to every line it writes (winston's `child`). */
  child(meta: Record<string, unknown>): Logger;
}
