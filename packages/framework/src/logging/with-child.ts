import type { Logger } from './logger.js';

/** A logger without `child` (Node's `console`, a minimal adapter): the four level methods. */
export type LevelLogger = Pick<Logger, 'error' | 'warn' | 'info' | 'debug'> &
  Partial<Pick<Logger, 'child'>>;

/**
 * The logger as the framework uses it: winston's `child` where the logger has one; otherwise a
 * wrapper that adds the child's fields to every line, so `console` works as given.
 */
export function withChild(logger: LevelLogger, fields: Record<string, unknown> = {}): Logger {
  if (typeof logger.child === 'function') return logger as Logger;
  const meta = (extra: Record<string, unknown> | undefined): Record<string, unknown> =>
    extra === undefined ? fields : { ...fields, ...extra };
  return {
    error: (message, extra) => logger.error(message, meta(extra)),
    warn: (message, extra) => logger.warn(message, meta(extra)),
    info: (message, extra) => logger.info(message, meta(extra)),
    debug: (message, extra) => logger.debug(message, meta(extra)),
    child: (more) => withChild(logger, { ...fields, ...more }),
  };
}
