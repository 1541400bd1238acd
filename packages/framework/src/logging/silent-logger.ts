import type { Logger } from './logger.js';

function drop(): void {
  // Intentionally empty: the silent logger discards every entry.
}

/**
 * A {@link Logger} that drops everything; its children are itself. Useful in tests and for
 * applications that want the framework to say nothing at all (the default logger is already
 * quiet: it prints warnings and errors only).
 */
export const silentLogger: Logger = Object.freeze({
  error: drop,
  warn: drop,
  info: drop,
  debug: drop,
  child: (): Logger => silentLogger,
});
