/**
 * Why the client is not connected, in words a user can act on: every connection attempt's
 * server and, when it fails, its cause (refused, host not found, no TCP connection in time, no
 * answer to the session handshake, closed by the server). The first failure on each server
 * since the last connection is logged at warn, so a wrong host or a stopped server shows at
 * once; the rest go to debug. What the last failure was feeds `health()` and the
 * ConnectionLossError of a call that waited in vain (its `cause`).
 */
import { Subject, type Observable } from 'rxjs';
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

/** The causes made here: their message says it all; a socket error's code gets our words. */
const ownCauses = new WeakSet<Error>();

/** A cause made here (a timeout, a close): an Error with a socket-style code. */
export function attemptError(code: string, message: string, cause?: Error): Error {
  const error = Object.assign(new Error(message, cause && { cause }), { code });
  ownCauses.add(error);
  return error;
}

/** Codes of the TCP layer: a TLS attempt that fails with one of them is no TLS failure. */
const SOCKET_CODES = new Set([...Object.keys(CAUSE_WORDS), 'EPIPE', 'ECONNABORTED']);

function describe(cause: Error): string {
  const code = (cause as { code?: unknown }).code;
  const words = typeof code === 'string' ? CAUSE_WORDS[code] : undefined;
  if (typeof code !== 'string' || ownCauses.has(cause)) return cause.message;
  // A TLS error's message (e.g. "unable to verify the first certificate") lacks its code.
  if (words === undefined) {
    return cause.message.includes(code) ? cause.message : `${cause.message} (${code})`;
  }
  // A socket error's own message says the code and address already; ours say more.
  return code === 'ETIMEDOUT' && !cause.message.startsWith('connect ')
    ? cause.message
    : `${words} (${code})`;
}

interface Attempt {
  readonly server: string;
  readonly startedMs: number;
  /** A TLS attempt: TCP connect, then the TLS handshake, then the session handshake. */
  readonly tls: boolean;
  tcpConnected: boolean;
  /** TCP is up and the TLS handshake under way (TLS attempts only). */
  tlsHandshaking: boolean;
  /** The attempt failed in TLS itself: a certificate, the protocol, or the options. */
  tlsFailed: boolean;
  cause: Error | undefined;
}

export class ConnectionAttempts {
  readonly #logger: Logger;
  readonly #quiet: boolean;
  #current: Attempt | undefined;
  #lastFailure: ConnectionFailure | undefined;
  /** Servers tried since the last connection, in order; each logged at warn once. */
  readonly #tried = new Set<string>();
  /** Per server, whether its latest failure since the last connection was a TLS failure. */
  readonly #latestWasTls = new Map<string, boolean>();
  readonly #failures = new Subject<ConnectionFailure>();
  #everConnected = false;

  /** `quiet`: every failure at debug (connection problems are not to be logged). */
  constructor(logger: Logger, options: { quiet: boolean }) {
    this.#logger = logger;
    this.#quiet = options.quiet;
  }

  /** The last failed attempt (kept after a connection: `health()` reports it with its time). */
  get lastFailure(): ConnectionFailure | undefined {
    return this.#lastFailure;
  }

  /** Every failed attempt, as it is recorded. */
  get failures(): Observable<ConnectionFailure> {
    return this.#failures;
  }

  /** An attempt on `server` begins (a socket is being opened; `tls`: a TLS one). */
  started(server: ServerAddress, options: { tls: boolean } = { tls: false }): void {
    this.#current = {
      server: serverName(server),
      startedMs: Date.now(),
      tls: options.tls,
      tcpConnected: false,
      tlsHandshaking: false,
      tlsFailed: false,
      cause: undefined,
    };
  }

  /** A TLS attempt's TCP connection is up; its TLS handshake begins. */
  tlsStarted(): void {
    const attempt = this.#current;
    if (!attempt) return;
    attempt.tcpConnected = true;
    attempt.tlsHandshaking = true;
  }

  /**
   * The attempt's connection is up (for TLS: the TLS handshake is done); the session
   * handshake is on its way.
   */
  tcpConnected(): void {
    if (!this.#current) return;
    this.#current.tcpConnected = true;
    this.#current.tlsHandshaking = false;
  }

  /** Why the current attempt is failing; the first reason given wins. */
  failing(cause: Error): void {
    const attempt = this.#current;
    if (!attempt || attempt.cause) return;
    const code = (cause as { code?: unknown }).code;
    if (attempt.tls && (attempt.tlsHandshaking || code === 'ERR_TLS_OPTIONS')) {
      if (typeof code !== 'string' || !SOCKET_CODES.has(code)) {
        attempt.tlsFailed = true;
      } else if (code === 'ECONNRESET') {
        // A server that does not speak TLS on that port hangs up like this.
        cause = attemptError(
          code,
          'the server reset the connection during the TLS handshake (is it a TLS port?)',
          cause,
        );
      }
    } else if (!attempt.tls && attempt.tcpConnected && code === 'ECONNRESET') {
      // A TLS port resets a connection whose first bytes are not TLS.
      cause = attemptError(
        code,
        'the server reset the connection during the session handshake (a TLS port? then give the tls option)',
        cause,
      );
    }
    attempt.cause = cause;
  }

  /** nzc's connect timer fired after `afterMs`: no connection (for TLS: no handshake) yet. */
  connectTimedOut(afterMs: number): void {
    const attempt = this.#current;
    if (!attempt) return;
    this.failing(
      attempt.tlsHandshaking
        ? attemptError('ETIMEDOUT', `no TLS handshake within ${afterMs} ms`)
        : attemptError('ETIMEDOUT', `no TCP connection within ${afterMs} ms`),
    );
  }

  /** The attempt took longer than `afterMs` and is being dropped (see ConnectionHealthMonitor). */
  timedOut(afterMs: number): void {
    const attempt = this.#current;
    if (!attempt) return;
    if (attempt.tlsHandshaking) {
      this.failing(attemptError('ETIMEDOUT', `no TLS handshake within ${afterMs} ms`));
      return;
    }
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
      (attempt.tlsHandshaking
        ? attemptError(
            'ECONNRESET',
            'the server closed the connection during the TLS handshake (is it a TLS port?)',
          )
        : attempt.tcpConnected
          ? attemptError(
              'ECONNRESET',
              attempt.tls
                ? 'the server closed the connection during the session handshake'
                : 'the server closed the connection during the handshake (a TLS port? then give the tls option)',
            )
          : attemptError('ECONNRESET', 'the connection closed before it was established'));
    const failure = { server: attempt.server, cause, atMs: Date.now() };
    this.#lastFailure = failure;
    this.#latestWasTls.set(attempt.server, attempt.tlsFailed);
    const first = !this.#tried.has(attempt.server);
    this.#tried.add(attempt.server);
    const message = `cannot connect to ZooKeeper at ${attempt.server}: ${describe(cause)}`;
    const meta = { server: attempt.server, code: (cause as { code?: unknown }).code };
    if (first && !this.#quiet) this.#logger.warn(message, meta);
    else this.#logger.debug(message, meta);
    this.#failures.next(failure);
  }

  /** The attempt got a session: the next failures are news again. */
  succeeded(): void {
    this.#current = undefined;
    this.#everConnected = true;
    this.#tried.clear();
    this.#latestWasTls.clear();
  }

  /**
   * Before the first connection, once the latest attempt on each of the `serverCount` servers
   * failed in TLS (a certificate not trusted or not naming the host, no common protocol, the
   * options unusable): the error a first-connection wait rejects with at once, since waiting
   * longer would only repeat it. Undefined otherwise; after a first connection, TLS failures
   * are retried like any other (a server's certificate may be being rotated).
   */
  tlsFailure(serverCount: number): ConnectionLossError | undefined {
    const last = this.#lastFailure;
    if (this.#everConnected || last === undefined) return undefined;
    if (this.#latestWasTls.size < serverCount) return undefined;
    if ([...this.#latestWasTls.values()].some((tls) => !tls)) return undefined;
    const tried = [...this.#tried];
    return new ConnectionLossError({
      detail:
        `no TLS connection; ${last.server}: ${describe(last.cause)}` +
        (tried.length > 1 ? `; servers tried: ${tried.join(', ')}` : ''),
      cause: last.cause,
    });
  }

  /**
   * What a call that waited `waitedMs` for a connection rejects with: the servers tried and
   * the last cause (an attempt still under way says how far it got).
   */
  notConnectedError(what: string, waitedMs: number): ConnectionLossError {
    const attempt = this.#current;
    const last = this.#lastFailure;
    let cause = last?.cause;
    let where = last?.server;
    let before = '';
    if (attempt && (attempt.tcpConnected || cause === undefined || this.#tried.size === 0)) {
      // The attempt under way may have just begun (a retry a few ms old when the wait ran
      // out): the failure before it since the last connection, if any, says what went wrong.
      if (last !== undefined && this.#tried.size > 0) {
        before = `; before that, ${last.server}: ${describe(last.cause)}`;
      }
      const forMs = Date.now() - attempt.startedMs;
      cause = attempt.tlsHandshaking
        ? attemptError('ETIMEDOUT', `TCP connected, but no TLS handshake for ${forMs} ms`)
        : attempt.tcpConnected
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
        : `; ${where}: ${describe(cause)}${before}` +
          (tried.length > 1 ? `; servers tried: ${tried.join(', ')}` : ''));
    return new ConnectionLossError({ detail, cause });
  }
}
