import { Subject, type Observable } from 'rxjs';
import type { ConnectionLossError } from '../errors/zookeeper-error-classes.js';
import {
  AuthFailedError,
  ClosedError,
  SessionExpiredError,
} from '../errors/zookeeper-error-classes.js';
import { isConnectionLoss, isRetryable, isZooKeeperError } from '../errors/predicates.js';
import { markBeforeFirstConnection, markNeverSent } from '../errors/never-sent.js';
import type { Logger } from '../logging/logger.js';
import type { ConnectionEvent } from './connection-event.js';
import { ConnectionHealthMonitor } from './connection-health-monitor.js';
import { EventDelivery } from './event-delivery.js';
import { NzcHandle, type NzcHandleEvent } from './nzc-adapter.js';
import {
  addAuthRequest,
  addWatchRequest,
  create2Request,
  createRequest,
  deleteRequest,
  existsRequest,
  getAclRequest,
  getAllChildrenNumberRequest,
  getChildrenRequest,
  getConfigRequest,
  getDataRequest,
  getEphemeralsRequest,
  multiReadRequest,
  multiRequest,
  reconfigRequest,
  removeWatchesRequest,
  setAclRequest,
  setDataRequest,
  syncRequest,
  type MultiReadOutcome,
  type NzcWatch,
  type ZooKeeperRequest,
} from './zookeeper-requests.js';
import { ReadBatcher } from './read-batcher.js';
import { parseConnectString, type ServerAddress } from '../paths/connect-string.js';
import { CONFIG_NODE } from '../paths/ensemble-config.js';
import type { ReconfigRequest } from '@zkrecipes/wire';
import { InFlightRequests } from './in-flight-requests.js';
import { ConnectionAttempts, type ConnectionFailure } from './connection-attempts.js';
import { WatchRegistry, type WatchKind } from './watch-registry.js';
import {
  PersistentWatchRegistry,
  type PersistentWatchListener,
} from './persistent-watch-registry.js';
import type { RequestTelemetry, RequestTrace } from '../telemetry/request-telemetry.js';
import type {
  Acl,
  CreateMode,
  PersistentWatchMode,
  SessionCredentials,
  Stat,
  Watcher,
  WireTransactionOp,
  WireTransactionResult,
} from './zookeeper-types.js';
import { onAbort } from '../async/on-abort.js';
import { isAbortOf, untilAborted } from '../async/until-aborted.js';
import type { TlsSource } from '../tls/tls-options.js';
import type { SaslMechanism } from '../sasl/sasl-mechanism.js';
import { NotReadOnlyError } from '../errors/zookeeper-error-classes.js';
import { ReadWriteSeeker } from './read-write-seeker.js';

export interface ZooKeeperConnectionOptions {
  readonly connectString: string;
  readonly sessionTimeoutMs: number;
  /** How long an operation waits (parked) for a connection before CONNECTION_LOSS. */
  readonly connectionTimeoutMs: number;
  /** Deadline of a request the server has not answered; then OPERATION_TIMEOUT. */
  readonly requestTimeoutMs: number;
  readonly authInfo: readonly { scheme: string; auth: Buffer }[];
  /** SASL on every new connection, before anything else is sent (see nzc-sasl-tap.ts). */
  readonly sasl?: { readonly mechanism: SaslMechanism; readonly describe: string } | undefined;
  readonly watchBudgetBytes: number;
  readonly logger: Logger;
  readonly reportUnhandledError: (error: unknown, context: string) => void;
  /** False when connection problems are not to be logged (connectionIssueLogging 'off'). */
  readonly logConnectionFailures: boolean;
  /** Times and traces every request, when an OpenTelemetry SDK records. */
  readonly requests?: RequestTelemetry | undefined;
  /** Each connection attempt's TLS options; undefined for plain TCP. */
  readonly tls?: TlsSource | undefined;
  /** Accept a read-only server (see FrameworkOptions.canBeReadOnly). Default false. */
  readonly canBeReadOnly?: boolean | undefined;
}

/** What a read-only server refuses (ZooKeeper's ReadOnlyRequestProcessor): refused here first. */
const READ_ONLY_REFUSED = new Set([
  'create',
  'create2',
  'delete',
  'setData',
  'setAcl',
  'multi',
  'sync',
]);

/** How long close() waits for the server to confirm the session's end. */
const CLOSE_REPLY_WAIT_MS = 1_000;

/** A request waiting for a connection: sent (in call order) or failed, exactly once. */
interface Parked {
  send: (handle: NzcHandle) => void;
  reject: (error: Error) => void;
}

/**
 * The live connection to the ensemble: owns the current nzc handle and replaces it when the
 * session is gone (nzc never reconnects after expiry), parks operations while not connected and
 * releases them only once the handshake and the re-sent credentials are out, puts a deadline on
 * every request, and watches liveness (see ConnectionHealthMonitor).
 *
 * It keeps ZooKeeper's client ordering: requests reach nzc's packet queue (a FIFO) in call
 * order, whether sent at once, batched (ReadBatcher) or parked while disconnected; watch
 * notifications and connection events reach their listeners in arrival order, after the
 * continuations of the replies read before them (EventDelivery).
 */
export class ZooKeeperConnection {
  readonly #options: ZooKeeperConnectionOptions;
  readonly #events = new Subject<ConnectionEvent>();
  readonly #watches: WatchRegistry;
  readonly #persistentWatches: PersistentWatchRegistry;
  readonly #health: ConnectionHealthMonitor;
  readonly #inFlight: InFlightRequests;
  readonly #delivery = new EventDelivery();
  readonly #reads = new ReadBatcher({
    single: (path) => this.#send(getDataRequest(this.#chroot, path, undefined), undefined),
    many: (paths) => this.#multiRead(paths),
  });
  /** The server answered a multiRead with UNIMPLEMENTED (it is 3.6+): read one at a time. */
  #multiReadUnsupported = false;
  /** Set once the server rejected our credentials: the connection is over for good. */
  #authFailure: AuthFailedError | undefined;
  #servers: readonly ServerAddress[];
  /** The connect string's chroot: every request's paths live under it. */
  readonly #chroot: string | undefined;
  readonly #attempts: ConnectionAttempts;
  #handle: NzcHandle | undefined;
  #connected = false;
  #closed = false;
  #lastSessionId: bigint | undefined;
  #parked: Parked[] = [];
  /** The credentials of `authInfo` and of every addAuth sent: each new handle sends them all. */
  readonly #authInfo: { scheme: string; auth: Buffer }[];
  /** Looks for a read-write server while read-only; none over TLS (`isro` is plain TCP). */
  readonly #seeker: ReadWriteSeeker | undefined;

  constructor(options: ZooKeeperConnectionOptions) {
    this.#options = options;
    this.#authInfo = [...options.authInfo];
    const { servers, chroot } = parseConnectString(options.connectString);
    this.#servers = servers;
    this.#chroot = chroot;
    if (options.canBeReadOnly === true && options.tls === undefined) {
      this.#seeker = new ReadWriteSeeker({
        servers: this.#servers,
        maxIntervalMs: Math.max(1_000, Math.min(60_000, options.sessionTimeoutMs)),
        onFound: (server) => this.#moveTo(server),
        logger: options.logger,
      });
    }
    this.#attempts = new ConnectionAttempts(options.logger, {
      quiet: !options.logConnectionFailures,
    });
    this.#watches = new WatchRegistry({
      budgetBytes: options.watchBudgetBytes,
      onWatcherError: (error, path) => options.reportUnhandledError(error, `watcher on ${path}`),
      deliver: (delivery) => this.#delivery.push(delivery),
    });
    this.#persistentWatches = new PersistentWatchRegistry((error, path) =>
      options.reportUnhandledError(error, `persistent watch on ${path}`),
    );
    this.#inFlight = new InFlightRequests(options.requestTimeoutMs);
    this.#health = new ConnectionHealthMonitor({
      sessionTimeoutMs: options.sessionTimeoutMs,
      serverCount: () => this.#servers.length,
      probe: () => this.#probe(),
      onDead: (reason) => this.#connectionDead(reason),
      onHandshakeStuck: () => {
        this.#attempts.timedOut(this.#health.connectTimeoutMs);
        this.#handle?.dropConnection();
      },
      currentSocket: () => this.#handle?.socket,
      lastHeardMs: () => this.lastHeardMs,
      isConnected: () => this.#connected,
    });
  }

  /** Low-level events for the state machine. */
  get events(): Observable<ConnectionEvent> {
    return this.#events;
  }

  get connected(): boolean {
    return this.#connected;
  }

  /** True while connected to a read-only server (only with canBeReadOnly). */
  get readOnly(): boolean {
    return this.#connected && this.#handle?.readOnly === true;
  }

  /** True once the server rejected our credentials (terminal). */
  get authFailed(): boolean {
    return this.#authFailure !== undefined;
  }

  /** What every wait rejects with once the server rejected our credentials. */
  get authFailure(): AuthFailedError | undefined {
    return this.#authFailure;
  }

  get sessionId(): bigint | undefined {
    return this.#lastSessionId;
  }

  get negotiatedSessionTimeoutMs(): number | undefined {
    return this.#lastSessionId === undefined ? undefined : this.#handle?.negotiatedSessionTimeoutMs;
  }

  /**
   * The send time (`performance.now()`) of the newest request of the current session that
   * the server answered; undefined without a session.
   */
  get lastHeardMs(): number | undefined {
    return this.#lastSessionId === undefined ? undefined : this.#handle?.lastHeardMs;
  }

  /**
   * Before the first connection, when every server failed in TLS: what a first-connection
   * wait rejects with at once (see ConnectionAttempts.tlsFailure).
   */
  get tlsFailure(): ConnectionLossError | undefined {
    return this.#options.tls ? this.#attempts.tlsFailure(this.#servers.length) : undefined;
  }

  /** Every failed connection attempt, as it is recorded. */
  get connectionFailures(): Observable<ConnectionFailure> {
    return this.#attempts.failures;
  }

  /** The last failed connection attempt: its server, cause and time. */
  get lastConnectionFailure(): ConnectionFailure | undefined {
    return this.#attempts.lastFailure;
  }

  /**
   * What a call that waited `waitedMs` for a connection in vain rejects with: `what` (e.g.
   * "not connected"), the servers tried and the last cause (its `cause`).
   */
  notConnectedError(what: string, waitedMs: number): ConnectionLossError {
    return this.#attempts.notConnectedError(what, waitedMs);
  }

  get watchBytesInUse(): number {
    return this.#watches.usedBytes;
  }

  sessionCredentials(): SessionCredentials | undefined {
    const handle = this.#handle;
    if (!handle || this.#lastSessionId === undefined) return undefined;
    return { sessionId: handle.sessionId, password: handle.sessionPassword };
  }

  /** The servers connection attempts go to: the connect string's, or the latest update. */
  get servers(): readonly ServerAddress[] {
    return this.#servers;
  }

  /**
   * Uses `servers` for every later connection attempt, of this session and of any new one;
   * the current connection stays. The connect string's chroot is kept.
   */
  updateServers(servers: readonly ServerAddress[]): void {
    if (servers.length === 0 || this.#closed) return;
    this.#servers = [...servers];
    this.#handle?.setServers(this.#servers);
  }

  start(): void {
    this.#openHandle();
    this.#health.start();
  }

  /**
   * Gives up the current session (the simulated LOST, or the server's expiry) and starts a
   * new one. Outstanding watches get SESSION_EXPIRED.
   */
  resetSession(reason: string): void {
    if (this.#closed || this.#authFailure) return;
    this.#options.logger.info('starting a new session', { reason });
    this.#handle?.abandon();
    this.#setDisconnected();
    this.#watches.expireAll();
    this.#openHandle();
  }

  /** Treat the connection as unproven (e.g. after an event-loop stall) until a reply arrives. */
  suspect(reason: string): void {
    if (!this.#connected) return;
    this.#setDisconnected();
    this.#publish({ type: 'disconnected', reason });
    this.#health.probeNow();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#delivery.close();
    this.#health.stop();
    this.#seeker?.stop();
    // Nothing in flight is waited for: its answer may still come, but nobody is told.
    this.#inFlight.failAll(new ClosedError());
    for (const parked of [...this.#parked]) parked.reject(new ClosedError());
    const handle = this.#handle;
    this.#handle = undefined;
    // Waits briefly for the server to confirm (so our ephemerals are gone when close()
    // resolves), never longer: a server that does not answer at once will expire the session.
    if (handle) await handle.closeSession(this.#connected ? CLOSE_REPLY_WAIT_MS : 0);
    this.#connected = false;
    this.#events.complete();
  }

  // The operations: one attempt each, on server paths (namespace applied) and checked input.
  // A call waits (parked) while not connected, each request has a deadline, failures are typed
  // ZooKeeperErrors; retrying is the client's job, never this layer's. Every `signal` takes a
  // request still waiting for a connection out of line (a request given up on is never sent
  // later) and ends the wait for one already sent; the close ends every wait.

  /** Resolves the path created (chroot removed). `ttlMs`: a TTL mode's time to live. */
  create(
    path: string,
    data: Buffer,
    acl: readonly Acl[],
    mode: CreateMode,
    signal?: AbortSignal,
    ttlMs?: number,
  ): Promise<string> {
    return this.#send(createRequest(this.#chroot, path, data, acl, mode, ttlMs), signal);
  }

  /** A create whose reply carries the new node's Stat (create2, ZooKeeper 3.5+). */
  create2(
    path: string,
    data: Buffer,
    acl: readonly Acl[],
    mode: CreateMode,
    signal?: AbortSignal,
    ttlMs?: number,
  ): Promise<{ path: string; stat: Stat }> {
    return this.#send(create2Request(this.#chroot, path, data, acl, mode, ttlMs), signal);
  }

  /** ZooKeeper's sync: the connected server catches up with the leader before it answers. */
  sync(path: string, signal?: AbortSignal): Promise<void> {
    return this.#send(syncRequest(this.#chroot, path), signal);
  }

  /** This session's ephemeral nodes whose path starts with `prefix` (ZooKeeper 3.6+). */
  getEphemerals(prefix: string, signal?: AbortSignal): Promise<string[]> {
    return this.#send(getEphemeralsRequest(this.#chroot, prefix), signal);
  }

  /** The number of nodes below `path`, at any depth (ZooKeeper 3.6+). */
  getAllChildrenNumber(path: string, signal?: AbortSignal): Promise<number> {
    return this.#send(getAllChildrenNumberRequest(this.#chroot, path), signal);
  }

  delete(path: string, version: number, signal?: AbortSignal): Promise<void> {
    return this.#send(deleteRequest(this.#chroot, path, version), signal);
  }

  /**
   * Resolves `null` when the node does not exist (the watch then waits for its creation). The
   * reads' `signal` also withdraws their watcher when it aborts (the server watch stays).
   */
  exists(path: string, watcher?: Watcher, signal?: AbortSignal): Promise<Stat | null> {
    if (!watcher) return this.#send(existsRequest(this.#chroot, path, undefined), signal);
    return this.#sendWatched('data', path, watcher, signal, (watch) =>
      existsRequest(this.#chroot, path, watch),
    );
  }

  getData(
    path: string,
    watcher?: Watcher,
    signal?: AbortSignal,
  ): Promise<{ data: Buffer; stat: Stat }> {
    // Unwatched reads made together share one multiRead (see ReadBatcher). The batch has no
    // signal of its own: each read's ends the wait for its answer, as in #send.
    if (!watcher) {
      const read = this.#reads.read(path);
      return signal === undefined ? read : untilAborted(read, signal);
    }
    return this.#sendWatched('data', path, watcher, signal, (watch) =>
      getDataRequest(this.#chroot, path, watch),
    );
  }

  /** Reads /zookeeper/config on the server's root, whatever the connect string's chroot. */
  getConfig(watcher?: Watcher, signal?: AbortSignal): Promise<{ data: Buffer; stat: Stat }> {
    if (!watcher) return this.#send(getConfigRequest(undefined), signal);
    return this.#sendWatched('data', CONFIG_NODE, watcher, signal, getConfigRequest);
  }

  /** ZooKeeper's reconfig (3.5+): resolves the new configuration as /zookeeper/config holds it. */
  reconfig(request: ReconfigRequest, signal?: AbortSignal): Promise<{ data: Buffer; stat: Stat }> {
    return this.#send(reconfigRequest(request), signal);
  }

  setData(path: string, data: Buffer, version: number, signal?: AbortSignal): Promise<Stat> {
    return this.#send(setDataRequest(this.#chroot, path, data, version), signal);
  }

  getChildren(
    path: string,
    watcher?: Watcher,
    signal?: AbortSignal,
  ): Promise<{ children: string[]; stat: Stat }> {
    if (!watcher) return this.#send(getChildrenRequest(this.#chroot, path, undefined), signal);
    return this.#sendWatched('child', path, watcher, signal, (watch) =>
      getChildrenRequest(this.#chroot, path, watch),
    );
  }

  getAcl(path: string, signal?: AbortSignal): Promise<{ acl: Acl[]; stat: Stat }> {
    return this.#send(getAclRequest(this.#chroot, path), signal);
  }

  setAcl(path: string, acl: readonly Acl[], version: number, signal?: AbortSignal): Promise<Stat> {
    return this.#send(setAclRequest(this.#chroot, path, acl, version), signal);
  }

  /** A multi: all or nothing. A failure rejects with a TransactionFailedError. */
  multi(ops: readonly WireTransactionOp[], signal?: AbortSignal): Promise<WireTransactionResult[]> {
    if (ops.length === 0) return Promise.resolve([]);
    return this.#send(multiRequest(this.#chroot, ops), signal);
  }

  /**
   * Sends credentials to the current session (waiting for a connection like any request) and
   * resolves once the server accepted them; from the send on, every later connection and
   * session sends them too, ahead of anything it releases. A refusal is AUTH_FAILED, terminal as
   * for `authInfo`: the server closes the connection.
   */
  async addAuth(scheme: string, auth: Buffer, signal?: AbortSignal): Promise<void> {
    await this.#send(addAuthRequest(this.#chroot, scheme, auth), signal);
  }

  /** Adds a persistent watch on the server (idempotent: the server keeps one per path and mode). */
  addWatch(path: string, mode: PersistentWatchMode, signal?: AbortSignal): Promise<void> {
    return this.#send(addWatchRequest(this.#chroot, path, mode), signal);
  }

  /** Removes the server's watches on `path`, unless a one-shot watch there must keep firing. */
  removeWatches(path: string, signal?: AbortSignal): Promise<void> {
    // The server removes the connection's watches on the path, one-shot ones included: leave
    // the persistent one in place (its events go nowhere) rather than silence a one-shot one.
    if (this.#watches.watches(path)) return Promise.resolve();
    return this.#send(removeWatchesRequest(this.#chroot, path), signal);
  }

  /**
   * Registers a listener for a persistent watch's events, across reconnects and new sessions
   * (the connection re-adds the server watch). The returned function unregisters it and says
   * whether no listener of either mode is left on the path (then remove the server watch).
   */
  listenPersistently(
    path: string,
    mode: PersistentWatchMode,
    listener: PersistentWatchListener,
  ): () => boolean {
    return this.#persistentWatches.add(path, mode, listener);
  }

  async #multiRead(paths: readonly string[]): Promise<MultiReadOutcome[]> {
    if (!this.#multiReadUnsupported) {
      try {
        return await this.#send(multiReadRequest(this.#chroot, paths), undefined);
      } catch (error) {
        if (!isZooKeeperError(error) || error.code !== 'UNIMPLEMENTED') throw error;
        this.#multiReadUnsupported = true;
        this.#options.logger.info(
          'the server has no multiRead (ZooKeeper < 3.6): reading one by one',
        );
      }
    }
    return Promise.all(
      paths.map((path) =>
        this.#send(getDataRequest(this.#chroot, path, undefined), undefined).catch(
          (error: unknown) => error as MultiReadOutcome,
        ),
      ),
    );
  }

  async #sendWatched<T>(
    kind: WatchKind,
    path: string,
    watcher: Watcher,
    signal: AbortSignal | undefined,
    request: (watch: NzcWatch) => ZooKeeperRequest<T>,
  ): Promise<T> {
    this.#watches.checkBudget(kind, path);
    const wrapped = this.#watches.wrap(kind, path, path, watcher, signal);
    try {
      return await this.#send(
        request({ watcher: wrapped.nzcWatcher, set: wrapped.watchSet }),
        signal,
      );
    } catch (error) {
      wrapped.cancel();
      throw error;
    }
  }

  /**
   * Sends a request now when connected with nothing parked ahead of it, else parks it: either
   * way after every request called before it (reads waiting in the batcher go first). A parked
   * request comes back here with the handle it is released on. It settles with its reply, or
   * rejects at its deadline, when `signal` aborts, or when the connection closes (see
   * InFlightRequests).
   */
  #send<T>(
    request: ZooKeeperRequest<T>,
    signal: AbortSignal | undefined,
    releasedOn?: NzcHandle,
  ): Promise<T> {
    let handle = releasedOn;
    if (handle === undefined) {
      this.#reads.flush();
      handle = this.#handle;
      if (!this.#connected || !handle || this.#parked.length > 0 || signal?.aborted === true) {
        return this.#park(request, signal);
      }
    }
    if (handle.readOnly && READ_ONLY_REFUSED.has(request.name)) {
      return Promise.reject(
        new NotReadOnlyError({ detail: `${request.name} on a connection to a read-only server` }),
      );
    }
    if (request.credential !== undefined) this.#addCredential(handle, request.credential);
    const trace = this.#options.requests?.started(request.name, handle.server);
    const sentOn = handle;
    const inFlight = this.#inFlight.start<T>(signal, (error) => this.#failureOf(sentOn, error));
    handle.send(request, inFlight);
    return trace === undefined ? inFlight.promise : this.#traced(trace, inFlight.promise, signal);
  }

  /** Credentials for this handle now, and for every later connection and session. */
  #addCredential(handle: NzcHandle, credential: { scheme: string; auth: Buffer }): void {
    const { scheme, auth } = credential;
    if (!this.#authInfo.some((c) => c.scheme === scheme && c.auth.equals(auth))) {
      this.#authInfo.push({ scheme, auth });
    }
    handle.addCredential(scheme, auth);
  }

  /** #send's request, measured (only when an OpenTelemetry SDK records). */
  async #traced<T>(
    trace: RequestTrace,
    reply: Promise<T>,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    try {
      const result = await reply;
      trace.succeeded();
      return result;
    } catch (error) {
      // A request given up on (its signal, the close) has no outcome to record.
      if (isAbortOf(error, signal) || this.#closed) trace.abandoned(error);
      else trace.failed(error);
      throw error;
    }
  }

  /**
   * Sends on `handle` now, outside the line and without a deadline: the connection's own
   * checks, which the handle's connection ends with it.
   */
  #sendOn<T>(handle: NzcHandle, request: ZooKeeperRequest<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => handle.send(request, { resolve, reject }));
  }

  /** What a failed request rejects with. */
  #failureOf(handle: NzcHandle, error: unknown): unknown {
    // nzc fails requests of an abandoned handle with CONNECTION_LOSS; the truth is that the
    // session they belonged to is gone.
    if (isConnectionLoss(error) && handle !== this.#handle && !this.#closed) {
      return new SessionExpiredError({
        detail: 'the session this request was sent in is gone',
        cause: error,
      });
    }
    return error;
  }

  /**
   * Parks a request until a connection is up, at most connectionTimeoutMs; parked requests are
   * sent in call order as it comes (see #releaseParked). Aborting `signal` takes it out of the
   * line at once: a request given up on is never sent later.
   */
  #park<T>(request: ZooKeeperRequest<T>, signal: AbortSignal | undefined): Promise<T> {
    if (this.#closed) return Promise.reject(new ClosedError());
    if (this.#authFailure) return Promise.reject(this.#authFailure);
    if (signal?.aborted === true) return Promise.reject(signal.reason as Error);
    return new Promise<T>((resolve, reject) => {
      const leave = (): void => {
        clearTimeout(timer);
        stopListening?.();
        const index = this.#parked.indexOf(parked);
        if (index >= 0) this.#parked.splice(index, 1);
      };
      const parked: Parked = {
        send: (handle) => {
          leave();
          resolve(this.#send(request, signal, handle));
        },
        reject: (error) => {
          leave();
          reject(error);
        },
      };
      // Many waits may share one caller signal: onAbort keeps that O(1) and warning-free.
      const stopListening = signal && onAbort(signal, () => parked.reject(signal.reason as Error));
      const timer = setTimeout(() => {
        const error = this.#attempts.notConnectedError(
          'not connected (connectionTimeoutMs)',
          this.#options.connectionTimeoutMs,
        );
        markNeverSent(error);
        if (this.#lastSessionId === undefined) markBeforeFirstConnection(error);
        parked.reject(error);
      }, this.#options.connectionTimeoutMs);
      this.#parked.push(parked);
    });
  }

  /**
   * Sends the parked requests in call order. Each leaves the line as it is sent, so a request
   * made meanwhile (a batched read flushed by the first send) parks behind the rest.
   */
  #releaseParked(handle: NzcHandle): void {
    while (this.#parked.length > 0 && this.#connected && this.#handle === handle) {
      this.#parked[0]!.send(handle);
    }
  }

  #openHandle(): void {
    const handle = new NzcHandle({
      connectString: this.#options.connectString,
      servers: this.#servers,
      sessionTimeoutMs: this.#options.sessionTimeoutMs,
      spinDelayMs: 200,
      authInfo: this.#authInfo,
      sasl: this.#options.sasl,
      onEvent: (event) => this.#onHandleEvent(handle, event),
      onTraffic: () => this.#health.trafficSeen(),
      onNotification: (event) => {
        // With no persistent watch registered as it arrives, nothing listens for it: a watch
        // added later was not yet on the server when this event was sent. No delivery to queue
        // then (a hand-over's notification would wait behind it).
        if (handle !== this.#handle || this.#persistentWatches.isEmpty) return;
        this.#delivery.push(() => this.#persistentWatches.dispatch(event));
      },
      inOrder: (settle) => this.#delivery.inOrder(settle),
      attempts: this.#attempts,
      tls: this.#options.tls,
      canBeReadOnly: this.#options.canBeReadOnly,
    });
    this.#handle = handle;
    handle.connect();
  }

  #onHandleEvent(handle: NzcHandle, event: NzcHandleEvent): void {
    if (handle !== this.#handle || this.#closed) return;
    switch (event) {
      case 'connected':
      case 'connectedReadOnly':
        this.#attempts.succeeded();
        if (this.#authInfo.length === 0) this.#setConnected(handle);
        else this.#confirmCredentials(handle);
        return;
      case 'disconnected':
        if (!this.#connected) return;
        this.#setDisconnected();
        this.#publish({ type: 'disconnected', reason: 'connection closed' });
        return;
      case 'expired':
        this.#options.logger.warn('session expired on the server');
        this.#publish({ type: 'expired' });
        this.resetSession('session expired');
        return;
      case 'authFailed':
        this.#failAuthentication(handle);
        return;
    }
  }

  /**
   * The server answers a connection's requests in order, so the answer to a read sent after
   * the credentials says they were accepted (a rejection comes first, as AUTH_FAILED). Only
   * then is the connection up: blockUntilConnected and parked operations never see a
   * connection whose credentials are about to be refused.
   */
  #confirmCredentials(handle: NzcHandle): void {
    this.#sendOn(handle, existsRequest(this.#chroot, '/', undefined)).then(
      () => {
        if (handle === this.#handle && !this.#closed && !this.#authFailure) {
          this.#setConnected(handle);
        }
      },
      () => undefined, // a dropped connection reconnects; a rejection arrives as 'authFailed'
    );
  }

  /**
   * AUTH_FAILED is terminal, as in ZooKeeper's own client: no reconnect, every wait ends. The
   * handle says why when it knows (a SASL refusal, a server that requires SASL).
   */
  #failAuthentication(handle: NzcHandle): void {
    if (this.#authFailure) return;
    const error =
      handle.authFailure ??
      new AuthFailedError({
        detail:
          'the server rejected the credentials (authInfo or addAuth); create a client with valid ones',
      });
    this.#authFailure = error;
    this.#options.logger.error('authentication failed', { reason: error.message });
    this.#health.stop();
    this.#setDisconnected();
    handle.abandon();
    // LOST is published first, then the parked requests fail: in the order a caller waiting on
    // both (blockUntilConnected, then its request) expects.
    this.#publish({ type: 'authFailed' });
    this.#delivery.push(() => {
      for (const parked of [...this.#parked]) parked.reject(error);
    });
  }

  #setConnected(handle: NzcHandle): void {
    const sessionId = handle.sessionId;
    const newSession = this.#lastSessionId !== undefined && this.#lastSessionId !== sessionId;
    this.#lastSessionId = sessionId;
    this.#connected = true;
    this.#health.connected(handle.negotiatedSessionTimeoutMs);
    this.#restorePersistentWatches(handle);
    this.#publish({
      type: 'connected',
      sessionId,
      sessionTimeoutMs: handle.negotiatedSessionTimeoutMs,
      newSession,
      readOnly: handle.readOnly,
    });
    if (handle.readOnly) this.#seeker?.start(handle.server);
    this.#releaseParked(handle);
  }

  /** Connection events travel with the watch events, in the order they happened. */
  #publish(event: ConnectionEvent): void {
    this.#delivery.push(() => this.#events.next(event));
  }

  /**
   * A new connection holds none of our persistent watches. Re-added before anything else is
   * released, so every request sent after the (RE)CONNECTED news is answered after them.
   */
  #restorePersistentWatches(handle: NzcHandle): void {
    for (const { path, mode } of this.#persistentWatches.watches) {
      const added = this.#inFlight.start<void>(undefined, (error) => error);
      handle.send(addWatchRequest(this.#chroot, path, mode), added);
      added.promise.catch((error: unknown) => {
        // Lost with this connection: the next one re-adds it.
        if (isConnectionLoss(error) || handle !== this.#handle || this.#closed) return;
        // Unanswered in time: reconnect, and the new connection re-adds every watch.
        if (isRetryable(error)) handle.dropConnection();
        else this.#options.reportUnhandledError(error, `re-adding the persistent watch on ${path}`);
      });
    }
  }

  #setDisconnected(): void {
    this.#connected = false;
    this.#seeker?.stop();
    this.#health.disconnected();
  }

  /** A read-write server answered while read-only: reconnect there (a new session). */
  #moveTo(server: ServerAddress): void {
    const handle = this.#handle;
    if (!handle || this.#closed || !this.readOnly) return;
    this.#options.logger.info('read-only: a read-write server answered; moving to it', {
      server: `${server.host}:${server.port}`,
    });
    handle.moveTo(server);
  }

  /** A cheap request whose reply proves the server is alive; resolves false on failure. */
  async #probe(): Promise<boolean> {
    const handle = this.#handle;
    if (!handle) return false;
    try {
      await this.#sendOn(handle, existsRequest(this.#chroot, '/', undefined));
      if (handle === this.#handle && !this.#connected && !this.#closed) this.#setConnected(handle);
      return true;
    } catch {
      return false;
    }
  }

  #connectionDead(reason: string): void {
    const handle = this.#handle;
    if (!handle || this.#closed) return;
    this.#options.logger.warn('connection considered dead; reconnecting', { reason });
    if (this.#connected) {
      this.#setDisconnected();
      this.#publish({ type: 'disconnected', reason });
    }
    handle.dropConnection();
  }
}
