import { Buffer } from 'node:buffer';
import { CallOrderGate } from './client/call-order-gate.js';
import { setMaxListeners } from 'node:events';
import { Subject } from 'rxjs';
import { FrameworkClient } from './client/framework-client.js';
import { defaultAclProvider, resolveAcl } from './client/acl-provider.js';
import { NamespaceMapper } from './client/namespace-mapper.js';
import { WriteWitnesses } from './client/write-witnesses.js';
import type { AclProvider, ClientContext, UnhandledError } from './client/client-context.js';
import { IllegalStateError } from './errors/zookeeper-error-classes.js';
import { registerCloseOnExit } from './lifecycle/close-on-exit.js';
import { iterableObservable } from './streams/iterable-observable.js';
import {
  ConnectionIssueLogger,
  type ConnectionIssueLogging,
} from './logging/connection-issue-logger.js';
import { createDefaultLogger, defaultLoggersFlushed } from './logging/create-default-logger.js';
import { withChild, type LevelLogger } from './logging/with-child.js';
import { JUTE_MAX_BUFFER_BYTES } from './paths/validate-data.js';
import { parseConnectString } from './paths/connect-string.js';
import { EnsembleTracker } from './client/ensemble-tracker.js';
import { ExponentialBackoffRetry } from './retry/exponential-backoff-retry.js';
import type { RetryPolicy } from './retry/retry-policy.js';
import { ConnectionState, type ErrorPolicy } from './state/connection-state.js';
import { ConnectionStateManager } from './state/connection-state-manager.js';
import { EventLoopStallDetector } from './state/event-loop-stall-detector.js';
import { ZooKeeperConnection } from './zk/zookeeper-connection.js';
import type { CompressionProvider } from './compression/compression-provider.js';
import { GzipCompressionProvider } from './compression/gzip-compression-provider.js';
import { assertNzcSupported } from './zk/nzc-adapter.js';
import { ClientTelemetries, FRAMEWORK_SCOPE } from './telemetry/client-telemetries.js';
import { ConnectionHistory } from './health/connection-history.js';
import { ConnectionTelemetry } from './health/connection-telemetry.js';
import { healthOf } from './health/client-health.js';
import type { MeterProviderLike, TracerProviderLike } from './telemetry/otel-types.js';
import { RequestTelemetry } from './telemetry/request-telemetry.js';
import { checkFrameworkOptions } from './check-framework-options.js';
import { tlsSource, type TlsOption } from './tls/tls-options.js';
import type { SaslOptions } from './sasl/sasl-mechanism.js';
import { describeSasl, saslMechanismOf } from './sasl/sasl-options.js';
import type { SchemaSet } from './schema/schema-set.js';

/** Options of {@link createFramework}. Only `connectString` is required. */
export interface FrameworkOptions {
  /** `host:port[,host:port...][/chroot]`. */
  readonly connectString: string;
  /** Default `new ExponentialBackoffRetry({ baseSleepMs: 1000, maxRetries: 3 })`. */
  readonly retryPolicy?: RetryPolicy;
  /** Requested session timeout; the server may negotiate it into its min/max. Default 60000. */
  readonly sessionTimeoutMs?: number;
  /** How long an operation waits for a connection before CONNECTION_LOSS. Default 15000. */
  readonly connectionTimeoutMs?: number;
  /** Deadline for a sent request the server has not answered. Default `sessionTimeoutMs`. */
  readonly requestTimeoutMs?: number;
  /** Every path is relative to this node (Curator's namespace). Default none. */
  readonly namespace?: string;
  /**
   * A winston(-compatible) logger; one without `child` (such as `console`) works too. Default:
   * winston at `warn` (env ZKRECIPES_LOG_LEVEL), loaded with the first line it writes; a
   * logger given here means winston is never loaded.
   */
  readonly logger?: LevelLogger;
  /** Which states recipes treat as "hold may be gone". Default 'standard' (SUSPENDED and LOST). */
  readonly errorPolicy?: ErrorPolicy;
  /** LOST after SUSPENDED lasts this percent of the negotiated timeout (1-100). Default 100. */
  readonly sessionExpirationPercent?: number;
  /** Credentials sent on every new connection, before any parked operation. */
  readonly authInfo?: readonly {
    /** The auth scheme, e.g. `'digest'`. */
    readonly scheme: string;
    /** The scheme's credentials, e.g. `'user:password'` for digest; strings are sent as UTF-8. */
    readonly auth: string | Buffer;
  }[];
  /**
   * SASL authentication on every new connection, before any other request (ZooKeeper's JAAS
   * `Client` section): `{ mechanism: 'DIGEST-MD5', username, password }`, or a
   * {@link SaslMechanism} of your own. A refusal is terminal: `start()` and every operation
   * reject with an AuthFailedError saying why. Authentication only; pair it with TLS for
   * confidentiality. Default none. See docs/framework/sasl.md.
   */
  readonly sasl?: SaslOptions;
  /** ACLs for created nodes. Default world:anyone, all permissions. */
  readonly aclProvider?: AclProvider;
  /**
   * TLS on every connection (the servers' secure client port): `true` for Node's default
   * trusted CAs, `tls.connect`'s options (`ca`, `cert`, `key`, `pfx`, `passphrase`,
   * `servername`, `minVersion`, `checkServerIdentity`, ...), or a synchronous function returning
   * them, called for each connection attempt so rotated certificates are used without a
   * restart. The certificate must name the connect string's host (or `servername`). With a
   * client certificate, the server (X509AuthenticationProvider) authenticates the session as
   * `x509:<subject DN>`. Before the first connection, a TLS failure on every server ends
   * `start({ timeoutMs })` at once. Default: plain TCP. See docs/framework/security.md.
   */
  readonly tls?: TlsOption;
  /**
   * Accept a read-only server (Curator's `canBeReadOnly`): a server cut off from its quorum
   * with `readonlymode.enabled=true` (and local sessions) still serves reads. Connected to one,
   * the state is READ_ONLY: reads work, writes reject at once with NotReadOnlyError, and the
   * client keeps probing the other servers (`isro`) to move to a read-write one. Default false.
   * See docs/framework/connection-states.md, "Read-only mode".
   */
  readonly canBeReadOnly?: boolean;
  /** How connection problems are logged. Default 'first-as-error'. */
  readonly connectionIssueLogging?: ConnectionIssueLogging;
  /**
   * Byte budget of watched paths: on reconnect they are re-sent in one SetWatches request, which
   * must fit `maxRequestBytes`. Default 512 KiB; at most `maxRequestBytes` minus 1 KiB.
   */
  readonly watchBudgetBytes?: number;
  /**
   * The largest request the server accepts: its `jute.maxbuffer` (default 1,048,575 bytes).
   * A request that would be larger (a big transaction, a huge ACL) is refused with an
   * InvalidArgumentError before anything is sent. Raise it only to match a server that raised
   * jute.maxbuffer.
   */
  readonly maxRequestBytes?: number;
  /** Close the client on SIGTERM/SIGINT, then let the process exit as it would. Default false. */
  readonly closeOnExit?: boolean;
  /** Treat an event-loop stall over a third of the session timeout as SUSPENDED. Default true. */
  readonly detectEventLoopStalls?: boolean;
  /**
   * Where the client's and its recipes' OpenTelemetry metrics go: an SDK's `MeterProvider`.
   * Default: the global one, read from `@opentelemetry/api` (an optional peer, loaded only then)
   * when it is installed; register the SDK before `start()`. Without an SDK nothing is
   * recorded and nothing is timed. See docs/observability.md.
   */
  readonly meterProvider?: MeterProviderLike;
  /**
   * Where spans go (requests, acquires, leadership terms, queue items, reconnects): an SDK's
   * `TracerProvider`. Default: the global one, as for `meterProvider`.
   */
  readonly tracerProvider?: TracerProviderLike;
  /**
   * Add each recipe's path as the `zkrecipes.path` attribute of its metrics and spans. Default
   * false: attributes then take a small fixed set of values; turn it on only when the number of
   * recipe paths in the process is small and bounded.
   */
  readonly telemetryPaths?: boolean;
  /**
   * Parents made by `createParents` (and the namespace node) are CONTAINER nodes, which the
   * server deletes once they have had children and have none left, as Curator's
   * `creatingParentContainersIfNeeded` does. `false` makes them PERSISTENT (Curator's
   * `dontUseContainerParents`), e.g. for a server older than 3.5.1. Default true.
   */
  readonly useContainerParents?: boolean;
  /**
   * What `compressed` data goes through (Curator's `compressionProvider`). Default: a
   * {@link GzipCompressionProvider}, whose bytes are Curator's.
   */
  readonly compressionProvider?: CompressionProvider;
  /**
   * Compress what create, setData and transaction ops write and decompress what getData reads,
   * unless a call says `compressed: false` (Curator's `enableCompression()`). Default false: only
   * calls with `compressed: true` do. See docs/framework/operations.md, "Compression".
   */
  readonly compressionEnabled?: boolean;
  /**
   * Where `idempotent: true` writes keep their witnesses (in the client's namespace): one
   * ephemeral node per write in flight, made once per session and reused, that tells a retry
   * whether a write whose reply was lost was applied. Its parent is made as `createParents`
   * makes parents. Default `'/zkrecipes-witnesses'`. See docs/framework/operations.md.
   */
  readonly writeWitnessPath?: string;
  /**
   * Follow the ensemble's membership (Curator's `ensembleTracker`): the client watches
   * /zookeeper/config and, when members change, connects to the new members' client addresses
   * from its next connection attempt on, keeping its session and chroot. `false` keeps the
   * connect string's servers (or those of `updateServers`). Default true. See
   * docs/framework/ensembles.md.
   */
  readonly ensembleTracker?: boolean;
  /**
   * Schemas every create, setData, setAcl, delete, read and transaction op is checked against
   * before anything is sent (Curator's `schemaSet`): a call the schema of its path does not
   * allow rejects with a SchemaViolationError. The framework's own nodes (the namespace node,
   * parents made by `createParents`, write witnesses) are not checked; recipes' nodes are, as
   * any caller's. Default: none (everything allowed, nothing checked). See
   * docs/framework/schemas.md.
   */
  readonly schemaSet?: SchemaSet;
}

/** Curator's default provider; it keeps no state, so clients share one. */
const DEFAULT_COMPRESSION_PROVIDER = new GzipCompressionProvider();

/** Idempotent writes of one session in flight at once; more wait for a witness. */
const WITNESS_SLOTS = 64;

/**
 * Creates a client (Curator's `CuratorFrameworkFactory.newClient`). Nothing connects until
 * `start()`. Invalid options throw an InvalidArgumentError at once, and a node-zookeeper-client
 * without the internals the framework relies on (another version than 1.1.x) an
 * IllegalStateError naming what it lacks.
 *
 * @example
 * ```ts
 * const client = createFramework({
 *   connectString: 'zk1:2181,zk2:2181,zk3:2181',
 *   retryPolicy: new ExponentialBackoffRetry({ baseSleepMs: 1000, maxRetries: 3 }),
 *   namespace: 'my-app',
 * });
 * client.on('stateChanged', (state) => logger.info(`ZooKeeper connection ${state}`));
 * await client.start();
 * const { data } = await client.getData('/config');
 * await client.close();
 * ```
 */
export function createFramework(options: FrameworkOptions): FrameworkClient {
  checkFrameworkOptions(options);
  assertNzcSupported();
  const sessionTimeoutMs = options.sessionTimeoutMs ?? 60_000;
  const logger = withChild(options.logger ?? createDefaultLogger());
  const issues = new ConnectionIssueLogger(logger, { mode: options.connectionIssueLogging });
  const unhandled = new Subject<UnhandledError>();
  const closed = new AbortController();
  // Every operation in flight listens on it (to stop retrying on close): not a leak.
  setMaxListeners(0, closed.signal);
  const reportUnhandledError = (error: unknown, context: string): void => {
    logger.error(`unhandled error in ${context}`, { error });
    unhandled.next({ error, context });
  };

  const telemetry = new ClientTelemetries({
    meterProvider: options.meterProvider,
    tracerProvider: options.tracerProvider,
    recordPaths: options.telemetryPaths,
  });
  const frameworkTelemetry = telemetry.forScope(FRAMEWORK_SCOPE);
  const watchBudgetBytes = options.watchBudgetBytes ?? 512 * 1024;
  const maxRequestBytes = options.maxRequestBytes ?? JUTE_MAX_BUFFER_BYTES;
  const connectionTimeoutMs = options.connectionTimeoutMs ?? 15_000;
  const connection = new ZooKeeperConnection({
    connectString: options.connectString,
    sessionTimeoutMs,
    connectionTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs ?? sessionTimeoutMs,
    authInfo: (options.authInfo ?? []).map(({ scheme, auth }) => ({
      scheme,
      auth: typeof auth === 'string' ? Buffer.from(auth) : auth,
    })),
    sasl: options.sasl === undefined ? undefined : describeSasl(saslMechanismOf(options.sasl)),
    watchBudgetBytes,
    logger,
    logConnectionFailures: issues.mode !== 'off',
    reportUnhandledError,
    requests: new RequestTelemetry(frameworkTelemetry),
    tls: tlsSource(options.tls),
    canBeReadOnly: options.canBeReadOnly === true,
  });
  const errorPolicy = options.errorPolicy ?? 'standard';
  const states = new ConnectionStateManager({
    connection,
    sessionExpirationPercent: options.sessionExpirationPercent ?? 100,
    errorPolicy,
    connectionTimeoutMs,
    closing: closed.signal,
    started: () => started,
    logger,
    report: reportUnhandledError,
  });
  const history = new ConnectionHistory(states.changes);
  const watchBudget = () => ({
    budgetBytes: watchBudgetBytes,
    usedBytes: connection.watchBytesInUse,
  });
  const connectionTelemetry = new ConnectionTelemetry(frameworkTelemetry, {
    changes: states.changes,
    history,
    currentState: () => (closed.signal.aborted ? undefined : states.state),
    watchBudget,
    closedSignal: closed.signal,
  });
  states.changes.subscribe((change) => {
    if (change.state === ConnectionState.SUSPENDED) issues.issue('connection suspended');
    else if (change.state === ConnectionState.LOST) issues.issue('session lost');
    else issues.reconnected();
  });
  const stalls = new EventLoopStallDetector({
    thresholdMs: sessionTimeoutMs / 3,
    onStall: ({ stallMs }) => {
      logger.warn(`event loop stalled for ${Math.round(stallMs)} ms; connection unproven`);
      connectionTelemetry.stalled(stallMs);
      connection.suspect(`event loop stalled for ${Math.round(stallMs)} ms`);
    },
    onError: (error) => reportUnhandledError(error, 'event-loop stall handler'),
  });
  states.changes.subscribe((change) => {
    const negotiated = connection.negotiatedSessionTimeoutMs;
    if (change.state !== ConnectionState.SUSPENDED && negotiated) {
      stalls.setThresholdMs(negotiated / 3);
    }
  });

  const aclProvider = options.aclProvider ?? defaultAclProvider;
  const { chroot } = parseConnectString(options.connectString);
  const tracker =
    options.ensembleTracker === false
      ? undefined
      : new EnsembleTracker({
          ops: connection,
          changes: states.changes,
          servers: () => connection.servers,
          updateServers: (servers) => connection.updateServers(servers),
          logger,
          report: reportUnhandledError,
        });
  const useContainerParents = options.useContainerParents ?? true;
  const context: ClientContext = {
    ops: connection,
    witnesses: new WriteWitnesses({
      ops: connection,
      basePath: new NamespaceMapper(options.namespace).toServer(
        options.writeWitnessPath ?? '/zkrecipes-witnesses',
      ),
      aclFor: (path) => resolveAcl(aclProvider, path),
      currentSessionId: () => states.sessionId,
      parentMode: useContainerParents ? 'CONTAINER' : 'PERSISTENT',
      maxSlots: WITNESS_SLOTS,
    }),
    retryPolicy:
      options.retryPolicy ?? new ExponentialBackoffRetry({ baseSleepMs: 1000, maxRetries: 3 }),
    logger,
    errorPolicy,
    aclProvider,
    connectionState: states,
    reportUnhandledError,
    unhandledErrors: iterableObservable(unhandled.asObservable()),
    closedSignal: closed.signal,
    callOrder: new CallOrderGate(closed.signal),
    maxRequestBytes,
    useContainerParents,
    compression: {
      provider: options.compressionProvider ?? DEFAULT_COMPRESSION_PROVIDER,
      enabled: options.compressionEnabled ?? false,
    },
    chrootBytes: Buffer.byteLength(chroot ?? ''),
    chroot,
    servers: () => connection.servers,
    updateServers: (servers) => connection.updateServers(servers),
    watchBudget,
    schemaSet: options.schemaSet?.allowsEverything === false ? options.schemaSet : undefined,
    addAuth: (scheme, auth, signal) => connection.addAuth(scheme, auth, signal),
    telemetry,
    health: () =>
      healthOf({
        history,
        started: () => started,
        closed: () => closed.signal.aborted,
        connected: () => states.isConnected,
        connectionState: () => states.state,
        sessionId: () => states.sessionId,
        lastHeardMs: () => connection.lastHeardMs,
        lastConnectionFailure: () => connection.lastConnectionFailure,
        watchBudget,
      }),
  };

  let started = false;
  let unregisterExitHook: (() => void) | undefined;
  const lifecycle = {
    get started() {
      return started;
    },
    get closed() {
      return closed.signal.aborted;
    },
    start(): Promise<void> {
      if (closed.signal.aborted)
        return Promise.reject(new IllegalStateError('start() after close()'));
      if (started) return Promise.reject(new IllegalStateError('start() called twice'));
      started = true;
      if (options.closeOnExit) unregisterExitHook = registerCloseOnExit(lifecycle, { logger });
      const connect = (): void => {
        if (closed.signal.aborted) return;
        tracker?.start();
        connection.start();
        if (options.detectEventLoopStalls ?? true) stalls.start();
      };
      // Without both providers given, the global ones are looked up first (loading
      // @opentelemetry/api when installed), so that the first state change and request are
      // recorded too.
      if (telemetry.ready === undefined) {
        connect();
        return Promise.resolve();
      }
      return telemetry.ready.then(connect);
    },
    async close(): Promise<void> {
      if (closed.signal.aborted) return;
      closed.abort();
      unregisterExitHook?.();
      stalls.stop();
      tracker?.close();
      await connection.close();
      states.close();
      unhandled.complete();
      // The default logger loads winston with its first line: the close's lines are out too.
      if (options.logger === undefined) await defaultLoggersFlushed();
    },
  };
  return new FrameworkClient(context, lifecycle, options.namespace);
}
