import { performance } from 'node:perf_hooks';
import type { WatchBudget } from '../zk/watch-registry.js';
import type { ConnectionState } from '../state/connection-state.js';
import type { ConnectionHistory } from './connection-history.js';
import { sessionIdOf } from './connection-telemetry.js';

/**
 * A snapshot of a client's health (`client.health()`): plain JSON-friendly values, for a
 * readiness endpoint, a status page or a log line.
 */
export interface ClientHealth {
  /** True when the client is started, not closed, and its connection is up and proven. */
  readonly ready: boolean;
  /** The client's lifecycle: LATENT before start(), STARTED, STOPPED after close(). */
  readonly state: 'LATENT' | 'STARTED' | 'STOPPED';
  /** The current connection state; undefined before the first connection and after close(). */
  readonly connectionState: ConnectionState | undefined;
  /**
   * True while connected to a read-only server (READ_ONLY, only with `canBeReadOnly`): `ready`
   * stays true, since reads work, but every write is refused.
   */
  readonly readOnly: boolean;
  /** The session id as ZooKeeper prints it (`0x...`); undefined before the first connection. */
  readonly sessionId: string | undefined;
  /** Milliseconds since the current session was established; undefined when there is none. */
  readonly sessionAgeMs: number | undefined;
  /**
   * Milliseconds since the server was last heard: since the send time of the newest request
   * (or ping) of this session that the server answered. Undefined before the first connection.
   */
  readonly sinceLastHeardMs: number | undefined;
  /** Milliseconds since the last connection state change; undefined before the first. */
  readonly sinceLastStateChangeMs: number | undefined;
  /** How many times the connection was SUSPENDED. */
  readonly suspendedCount: number;
  /** How many times it came back (RECONNECTED). */
  readonly reconnectedCount: number;
  /** How many sessions were given up for lost (LOST). */
  readonly lostCount: number;
  /** Event-loop stalls long enough to suspect the connection. */
  readonly eventLoopStalls: number;
  /** The watch budget and how much of it is in use. */
  readonly watchBudget: WatchBudget;
  /**
   * The last failed connection attempt (kept after the client connects): the server, the
   * error's code (`ECONNREFUSED`, `ENOTFOUND`, `ETIMEDOUT`, ...) and message, and when
   * (ISO 8601). Undefined while no attempt has failed.
   */
  readonly lastConnectionError: ConnectionErrorReport | undefined;
}

/** A failed connection attempt, as {@link ClientHealth} reports it. */
export interface ConnectionErrorReport {
  /** `host:port`. */
  readonly server: string;
  /** The error's code (`ECONNREFUSED`, `ENOTFOUND`, `ETIMEDOUT`, ...), when it has one. */
  readonly code: string | undefined;
  /** The error's message. */
  readonly message: string;
  /** When it failed, ISO 8601. */
  readonly at: string;
}

/** A failed connection attempt as the connection records it. */
interface ConnectionFailure {
  readonly server: string;
  readonly cause: Error;
  readonly atMs: number;
}

/** What a health snapshot is made from (wired by createFramework). */
export interface ClientHealthSources {
  readonly history: ConnectionHistory;
  readonly started: () => boolean;
  readonly closed: () => boolean;
  readonly connected: () => boolean;
  readonly connectionState: () => ConnectionState | undefined;
  readonly sessionId: () => bigint | undefined;
  readonly lastHeardMs: () => number | undefined;
  /** The last failed connection attempt: server, cause, `Date.now()` time. */
  readonly lastConnectionFailure: () => ConnectionFailure | undefined;
  readonly watchBudget: () => WatchBudget;
}

/** Takes a snapshot of the client's health now. */
export function healthOf(sources: ClientHealthSources): ClientHealth {
  const now = performance.now();
  const { history } = sources;
  const closed = sources.closed();
  const started = sources.started();
  const sessionId = closed ? undefined : sources.sessionId();
  const lastHeardMs = closed ? undefined : sources.lastHeardMs();
  return {
    ready: started && !closed && sources.connected(),
    state: closed ? 'STOPPED' : started ? 'STARTED' : 'LATENT',
    connectionState: closed ? undefined : sources.connectionState(),
    readOnly: !closed && sources.connectionState() === 'READ_ONLY',
    sessionId: sessionId === undefined ? undefined : sessionIdOf(sessionId),
    sessionAgeMs: elapsed(now, closed ? undefined : history.sessionStartedMs),
    sinceLastHeardMs: elapsed(now, lastHeardMs),
    sinceLastStateChangeMs: elapsed(now, history.lastChangeMs),
    suspendedCount: history.changes.SUSPENDED,
    reconnectedCount: history.changes.RECONNECTED,
    lostCount: history.changes.LOST,
    eventLoopStalls: history.eventLoopStalls,
    watchBudget: sources.watchBudget(),
    lastConnectionError: reportOf(sources.lastConnectionFailure()),
  };
}

function reportOf(failure: ConnectionFailure | undefined): ConnectionErrorReport | undefined {
  if (failure === undefined) return undefined;
  const code = (failure.cause as { code?: unknown }).code;
  return {
    server: failure.server,
    code: typeof code === 'string' ? code : undefined,
    message: failure.cause.message,
    at: new Date(failure.atMs).toISOString(),
  };
}

function elapsed(now: number, sinceMs: number | undefined): number | undefined {
  return sinceMs === undefined ? undefined : Math.max(0, Math.round(now - sinceMs));
}
