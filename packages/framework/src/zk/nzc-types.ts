/**
 * Our own typing of the parts of node-zookeeper-client 1.1.3 the adapter uses, including a
 * few internals (the connection manager's socket and state) that the adapter needs to force a
 * reconnect and to watch the handshake. `@types/node-zookeeper-client` is wrong in places
 * (longs are 8-byte Buffers, callbacks get `Exception` objects with numeric codes).
 * nzc-internals.ts checks that a loaded nzc has these members before the adapter uses it.
 */
import type { Socket } from 'node:net';
import type { PendingPacket } from './nzc-reply-tap.js';

/** The module itself: what the adapter calls on it. */
export interface NzcModule {
  createClient(connectString: string, options: NzcClientOptions): NzcClient;
  /** nzc's Exception: its error codes as numeric properties (`NO_NODE: -101`, ...). */
  readonly Exception: object;
}

/**
 * An error as a request's callback gets it: nzc's own Exception for a local failure (the
 * connection went), or the reply tap's ServerReplyError for the server's answer. Both carry
 * the wire code.
 */
export interface NzcRequestError {
  readonly code: number;
}

export interface NzcState {
  readonly name: string;
  readonly code: number;
}

export interface NzcEvent {
  readonly type: number;
  readonly name: string;
  readonly path: string;
}

export type NzcWatcher = (event: NzcEvent) => void;

/** A notification as nzc's watcher manager takes it (before it makes an NzcEvent of it). */
export interface NzcWatcherEvent {
  readonly type: number;
  readonly state: number;
  readonly path: string;
}

/** ConnectionManager internals: read-only use, except `socket.destroy()` to force a reconnect. */
export interface NzcConnectionManager {
  /** Set to CLOSING by the adapter to close a connection that never finished its handshake. */
  state: number;
  /**
   * nzc's timer for a TCP connect; cleared when the adapter closes mid-connect, set by the
   * TLS socket override (nzc-tls-socket.ts) as nzc's own connect sets it.
   */
  connectTimeoutHandler: NodeJS.Timeout | undefined;
  /**
   * Starts the next connection attempt (nzc also calls it after a socket closes): picks the
   * server, opens the socket and binds the handlers below to it. Replaced per instance for TLS.
   */
  connect(): void;
  /** Sets nzc's state and emits its 'state' event when it changed. */
  setState(state: number): void;
  /** Bound to each new socket's 'drain' event: writes what waits in nzc's packet queue. */
  onSocketDrain(): void;
  /** Bound to each new socket's 'connect' event: writes the handshake; the adapter times it. */
  onSocketConnected(): void;
  /** Picks the server of the next attempt (after a random pause once all were tried). */
  findNextServer(callback: (server: { host: string; port: number }) => void): void;
  /** Bound to each new socket's 'error' event (nzc keeps the error to itself). */
  onSocketError(error: Error): void;
  /** nzc's TCP connect timer fired: it destroys the socket. */
  onSocketConnectTimeout(): void;
  /** Bound to each new socket's 'close' event: fails what is pending, tries the next server. */
  onSocketClosed(hadError: boolean): void;
  /** nzc's TCP connect timeout, in ms. */
  readonly connectTimeout: number;
  /** The current attempt's socket; set by the TLS socket override for its TLS sockets. */
  socket: Socket | undefined;
  /** The servers nzc tries in turn; the adapter sets them from its own parse. */
  servers: { host: string; port: number }[];
  /** Index into `servers` of the next attempt (taken modulo its length). */
  nextServerIndex: number;
  /** Attempts since the last pause; nzc pauses once it equals `servers.length`. */
  serverAttempts: number;
  /** Calls back with the server of the next connection attempt; the adapter notes which. */
  findNextServer(callback: (server: { host: string; port: number }) => void): void;
  /** The connect string's chroot, e.g. '/app', or undefined. */
  readonly chrootPath: string | undefined;
  /** Dispatches notifications to one-shot watchers; the adapter taps `emit`. */
  readonly watcherManager: NzcWatcherManager;
  /**
   * nzc's packet queue: the adapter sends the requests it encodes itself through it. Queues a
   * request. nzc calls `callback` with its exception on a local failure (the
   * connection went); the reply tap calls it with the server's error or null and the body.
   */
  queue(request: object, callback: (error: NzcRequestError | null, body?: unknown) => void): void;
  /** Bound to each new socket's 'data' event; the reply tap replaces it. */
  onSocketData(buffer: Buffer): void;
  /**
   * Requests written and not answered yet, oldest first (replies answer them in order); the
   * reply tap takes the answered raw requests off it.
   */
  readonly pendingQueue: PendingPacket[];
  /** The zxid of the last reply; the reply tap notes the ones it answers, as nzc does. */
  zxid: Buffer;
  /** nzc's xid counter; the SASL tap takes its requests' xids from it, as nzc's own requests. */
  xid: number;
  /** The session's id (8 bytes), password and timeout as nzc sends them in its handshake. */
  readonly sessionId: Buffer;
  readonly sessionPassword: Buffer;
  readonly sessionTimeout: number;
  /**
   * nzc's one-shot watcher registration, as its own reads call it when a reply is read: the
   * adapter calls them for the reads it sends itself, so SetWatches on reconnect and event
   * dispatch see those watchers too.
   */
  registerDataWatcher(path: string, watcher: NzcWatcher): void;
  registerChildWatcher(path: string, watcher: NzcWatcher): void;
  registerExistenceWatcher(path: string, watcher: NzcWatcher): void;
}

/** nzc's one-shot watcher registration (its connection manager's), for a read's reply. */
export type NzcWatcherRegistry = Pick<
  NzcConnectionManager,
  'registerDataWatcher' | 'registerChildWatcher' | 'registerExistenceWatcher'
>;

/** nzc's notification dispatch to its one-shot watchers; the adapter taps `emit`. */
export interface NzcWatcherManager {
  emit(event: NzcWatcherEvent): void;
}

export interface NzcClient {
  readonly connectionManager: NzcConnectionManager;
  connect(): void;
  close(): void;
  on(event: 'state', listener: (state: NzcState) => void): void;
  removeAllListeners(): void;
  getSessionId(): Buffer;
  getSessionPassword(): Buffer;
  getSessionTimeout(): number;
  addAuthInfo(scheme: string, auth: Buffer): void;
}

export interface NzcClientOptions {
  sessionTimeout: number;
  spinDelay: number;
  retries: number;
  sessionId?: Buffer;
  sessionPassword?: Buffer;
}
