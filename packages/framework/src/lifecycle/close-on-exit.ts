import { createDefaultLogger, defaultLoggersFlushed } from '../logging/create-default-logger.js';
import type { Logger } from '../logging/logger.js';

/** Something {@link registerCloseOnExit} can close: a framework client, a recipe. */
export interface Closable {
  /** Releases what the object holds; called once on SIGTERM/SIGINT. */
  close(): Promise<void>;
}

/** Options for {@link registerCloseOnExit}. */
export interface CloseOnExitOptions {
  /** The signals that close it. Default `['SIGTERM', 'SIGINT']`. */
  signals?: NodeJS.Signals[];
  /** How long `close()` may take before the process exits anyway. Default 5000. */
  timeoutMs?: number;
  /** Where close failures and timeouts go. Default: {@link createDefaultLogger}. */
  logger?: Logger;
}

interface Registration {
  readonly closable: Closable;
  readonly signals: ReadonlySet<NodeJS.Signals>;
  readonly timeoutMs: number;
  readonly logger: Logger | undefined;
}

// One process-level listener per signal, shared by every registration: a listener per client
// would trip MaxListenersExceededWarning in an application with many clients.
const registrations = new Set<Registration>();
const handlers = new Map<NodeJS.Signals, () => void>();

/**
 * Closes `closable` when the process receives one of `options.signals`, then lets the process
 * exit as it would have without us. Returns a function that unregisters it (idempotent).
 *
 * Why: a process that exits without closing its ZooKeeper client leaves its ephemeral nodes
 * (its lock, its group membership, its leader candidacy) alive until the session times out,
 * so the rest of the cluster waits up to a full session timeout for a process that is gone.
 *
 * On a signal, every registration for that signal is closed in parallel; a close that fails is
 * logged, one that takes longer than `timeoutMs` is logged and abandoned. Our listeners are
 * removed first, so a second signal while closing takes the signal's normal effect (a second
 * Ctrl-C still kills). Then:
 * - if no other listener for the signal was installed when it arrived, the signal is raised
 *   again, and the default action ends the process exactly as without us (killed by that
 *   signal, exit status 128 + n);
 * - if the application has its own listener, the signal is not raised again: installing a
 *   listener means the application owns the exit. Our close runs concurrently with that
 *   listener; an application that wants to exit only after the client is closed should call
 *   `client.close()` in its own listener and await it (a second `close()` is a no-op).
 */
export function registerCloseOnExit(
  closable: Closable,
  options: CloseOnExitOptions = {},
): () => void {
  const timeoutMs = options.timeoutMs ?? 5000;
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0) {
    throw new RangeError(`timeoutMs must be a non-negative number of ms; got ${String(timeoutMs)}`);
  }
  const registration: Registration = {
    closable,
    signals: new Set(options.signals ?? ['SIGTERM', 'SIGINT']),
    timeoutMs,
    logger: options.logger,
  };
  registrations.add(registration);
  for (const signal of registration.signals) installHandler(signal);
  return () => unregister(registration);
}

function installHandler(signal: NodeJS.Signals): void {
  if (handlers.has(signal)) return;
  const handler = (): void => onSignal(signal, handler);
  handlers.set(signal, handler);
  process.on(signal, handler);
}

function unregister(registration: Registration): void {
  if (!registrations.delete(registration)) return;
  for (const signal of registration.signals) {
    if (![...registrations].some((r) => r.signals.has(signal))) removeHandler(signal);
  }
}

function removeHandler(signal: NodeJS.Signals): void {
  const handler = handlers.get(signal);
  if (handler === undefined) return;
  handlers.delete(signal);
  process.removeListener(signal, handler);
}

function onSignal(signal: NodeJS.Signals, handler: () => void): void {
  // Decided now, while all listeners that received this signal are still installed.
  const applicationOwnsExit = process.listeners(signal).some((l) => l !== handler);
  const closing = [...registrations].filter((r) => r.signals.has(signal));
  for (const registration of closing) unregister(registration);
  // unregister removed our handler if nobody else needs it; make sure it is gone either way.
  removeHandler(signal);

  void Promise.allSettled(closing.map((r) => closeWithin(r, signal)))
    // The default logger may still be loading winston; winston hands lines to the transport
    // on a later tick. Let them reach stderr first.
    .then(() => defaultLoggersFlushed())
    .then(() => new Promise((resolve) => setImmediate(resolve)))
    .then(() => {
      if (!applicationOwnsExit) process.kill(process.pid, signal);
    });
}

// Failures and timeouts are logged; the exit goes ahead regardless. The timeout
// timer stays ref'd on purpose: it keeps the process alive until we re-raise the signal, even
// when a hung close() holds nothing else on the event loop.
async function closeWithin(registration: Registration, signal: NodeJS.Signals): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), registration.timeoutMs);
  });
  const logger = loggerOf(registration);
  logger.info(`closing on ${signal}`, { signal });
  try {
    const outcome = await Promise.race([
      Promise.resolve()
        .then(() => registration.closable.close())
        .then(() => 'closed' as const),
      timedOut,
    ]);
    if (outcome === 'timeout') {
      logger.warn(`close() did not finish within ${registration.timeoutMs} ms; exiting anyway`, {
        signal,
        timeoutMs: registration.timeoutMs,
      });
    }
  } catch (error) {
    logger.error('close() failed; exiting anyway', { signal, error });
  } finally {
    clearTimeout(timer);
  }
}

function loggerOf(registration: Registration): Logger {
  // Resolved at signal time, not at registration: most processes never receive a signal.
  return (registration.logger ?? createDefaultLogger()).child({ component: 'closeOnExit' });
}
