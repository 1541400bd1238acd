/**
 * Why the client is not connected, in words a user can act on: every connection attempt's
 * server and, when it fails, its cause (refused, host not found, no TCP connection in time, no
 * answer to the session handshake, closed by the server). The first failure on each server
 * since the last connection is logged at warn, so a wrong host or a stopped server shows at
 * once; the rest go to debug. What the last failure was feeds `health()` and the
 * ConnectionLossError of a call that waited in vain (its `cause`).
 */
import { ConnectionLossError } from '../errors/zookeeper-error-classes.js';
import type { Logger } from '../logging/logger.js';
import type { ServerAddress } from '../paths/connect-string.js';

/** A failed connection attempt: the server, the cause, and when (`Date.now()`). */
export interface ConnectionFailure {
  /** `host:port` as in the connect string (IPv6 hosts in brackets). */
  readonly server: string;
  readonly cause: Error;
  readonly atMs: number;
}

/** The words for the socket error codes a wrong address or a stopped server gives. */
const CAUSE_WORDS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused (is the server running on that port?)',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed (DNS not answering)',
  ECONNRESET: 'connection reset by the server',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'timed out',
};

/** `host:port`, IPv6 hosts in brackets. */
export function serverName({ host, port }: ServerAddress): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** A cause made here (a timeout, a close): an Error with a socket-style code. */
export function attemptError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function describe(cause: Error): string {
  const code = (cause as { code?: unknown }).code;
  const words = typeof code === 'string' ? CAUSE_WORDS[code] : undefined;
  if (typeof code !== 'string' || words === undefined) return cause.message;
  // A socket error's own message says the code and address already; ours say more.
  return code === 'ETIMEDOUT' && !cause.message.startsWith('connect ')
    ? cause.message
    : `${words} (${code})`;
}

interface Attempt {
  readonly server: string;
  readonly startedMs: number;
  tcpConnected: boolean;
  cause: Error | undefined;
}

export class ConnectionAttempts {
  readonly #logger: Logger;
  readonly #quiet: boolean;
  #current: Attempt | undefined;
  #lastFailure: ConnectionFailure | undefined;
  /** Servers tried since the last connection, in order; each logged at warn once. */
  readonly #tried = new Set<string>();

  /** `quiet`: every failure at debug (connection problems are not to be logged). */
  constructor(logger: Logger, options: { quiet: boolean }) {
    this.#logger = logger;
    this.#quiet = options.quiet;
  }

  /** The last failed attempt (kept after a connection: `health()` reports it with its time). */
  get lastFailure(): ConnectionFailure | undefined {
    return this.#lastFailure;
  }

  /** An attempt on `server` begins (a socket is being opened). */
  started(server: ServerAddress): void {
    this.#current = {
      server: serverName(server),
      startedMs: Date.now(),
      tcpConnected: false,
      cause: undefined,
    };
  }

  /** The attempt's TCP connection is up; the session handshake is on its way. */
  tcpConnected(): void {
    if (this.#current) this.#current.tcpConnected = true;
  }

  /** Why the current attempt is failing; the first reason given wins. */
  failing(cause: Error): void {
    if (this.#current) this.#current.cause ??= cause;
  }

  /** The attempt took longer than `afterMs` and is being dropped (see ConnectionHealthMonitor). */
  timedOut(afterMs: number): void {
    const attempt = this.#current;
    if (!attempt) return;
    this.failing(
      attempt.tcpConnected
        ? attemptError('ETIMEDOUT', `no answer to the session handshake within ${afterMs} ms`)
        : attemptError('ETIMEDOUT', `no TCP connection within ${afterMs} ms`),
    );
  }

  /** The attempt's socket closed without a session: records and logs the failure. */
  ended(): void {
    const attempt = this.#current;
    if (!attempt) return;
    this.#current = undefined;
    const cause =
      attempt.cause ??
      (attempt.tcpConnected
        ? attemptError('ECONNRESET', 'the server closed the connection during the handshake')
        : attemptError('ECONNRESET', 'the connection closed before it was established'));
    const failure = { server: attempt.server, cause, atMs: Date.now() };
    this.#lastFailure = failure;
    const first = !this.#tried.has(attempt.server);
    this.#tried.add(attempt.server);
    const message = `cannot connect to ZooKeeper at ${attempt.server}: ${describe(cause)}`;
    const meta = { server: attempt.server, code: (cause as { code?: unknown }).code };
    if (first && !this.#quiet) this.#logger.warn(message, meta);
    else this.#logger.debug(message, meta);
  }

  /** The attempt got a session: the next failures are news again. */
  succeeded(): void {
    this.#current = undefined;
    this.#tried.clear();
  }

  /**
   * What a call that waited `waitedMs` for a connection rejects with: the servers tried and
   * the last cause (an attempt still under way says how far it got).
   */
  notConnectedError(what: string, waitedMs: number): ConnectionLossError {
    const attempt = this.#current;
    let cause = this.#lastFailure?.cause;
    let where = this.#lastFailure?.server;
    if (attempt && (attempt.tcpConnected || cause === undefined || this.#tried.size === 0)) {
      const forMs = Date.now() - attempt.startedMs;
      cause = attempt.tcpConnected
        ? attemptError(
            'ETIMEDOUT',
            `TCP connected, but no answer to the session handshake for ${forMs} ms`,
          )
        : attemptError('ETIMEDOUT', `no TCP connection after ${forMs} ms`);
      where = attempt.server;
    }
    const tried = [...this.#tried];
    if (where !== undefined && !tried.includes(where)) tried.push(where);
    const detail =
      `${what} within ${waitedMs} ms` +
      (where === undefined || cause === undefined
        ? ''
        : `; ${where}: ${describe(cause)}` +
          (tried.length > 1 ? `; servers tried: ${tried.join(', ')}` : ''));
    return new ConnectionLossError({ detail, cause });
  }
}
