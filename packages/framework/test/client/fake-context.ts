// A ClientContext and ClientLifecycle around a FakeZooKeeper, with the state streams as
// subjects the test drives and unhandled errors collected in an array.
import { WriteWitnesses } from '../../src/client/write-witnesses.js';
import { ConnectionStream } from '../../src/state/connection-stream.js';
import { FirstConnection } from '../../src/state/first-connection.js';
import { CallOrderGate } from '../../src/client/call-order-gate.js';
import { BehaviorSubject, Subject } from 'rxjs';
import { defaultAclProvider } from '../../src/client/acl-provider.js';
import type {
  AclProvider,
  ClientContext,
  ClientLifecycle,
  UnhandledError,
} from '../../src/client/client-context.js';
import { FrameworkClient } from '../../src/client/framework-client.js';
import { GzipCompressionProvider } from '../../src/compression/gzip-compression-provider.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { iterableObservable } from '../../src/streams/iterable-observable.js';
import type { RetryPolicy } from '../../src/retry/retry-policy.js';
import type { ConnectionState, ConnectionStateChange } from '../../src/state/connection-state.js';
import { ClientTelemetries } from '../../src/telemetry/client-telemetries.js';
import { ConnectionHistory } from '../../src/health/connection-history.js';
import { healthOf } from '../../src/health/client-health.js';
import { FakeZooKeeper } from './fake-zookeeper.js';

/** Retries up to `maxRetries` times without sleeping. */
export function immediateRetry(maxRetries: number): RetryPolicy {
  return { nextDelayMs: ({ retryCount }) => (retryCount < maxRetries ? 0 : undefined) };
}

export interface FakeSetup {
  readonly zk: FakeZooKeeper;
  readonly context: ClientContext;
  readonly lifecycle: ClientLifecycle & { closeCalls: number };
  readonly client: FrameworkClient;
  readonly unhandled: UnhandledError[];
  /** Publishes a state change, as the connection's state machine would. */
  readonly emitState: (state: ConnectionState) => void;
}

export interface FakeSetupOptions {
  namespace?: string;
  retryPolicy?: RetryPolicy;
  aclProvider?: AclProvider;
  /** The client's useContainerParents. Default true (as createFramework). */
  useContainerParents?: boolean;
  /** Call start() on the client. Default true. */
  start?: boolean;
}

export async function fakeSetup(options: FakeSetupOptions = {}): Promise<FakeSetup> {
  const zk = new FakeZooKeeper();
  const states = new BehaviorSubject<ConnectionState>('CONNECTED');
  const changes = new Subject<ConnectionStateChange>();
  const unhandledSubject = new Subject<UnhandledError>();
  const unhandled: UnhandledError[] = [];
  unhandledSubject.subscribe((entry) => unhandled.push(entry));
  const closed = new AbortController();
  let started = false;
  const history = new ConnectionHistory(changes);
  let servers: { host: string; port: number }[] = [{ host: '127.0.0.1', port: 2181 }];
  const isConnected = (): boolean => states.value === 'CONNECTED' || states.value === 'RECONNECTED';

  const context: ClientContext = {
    ops: zk,
    witnesses: new WriteWitnesses({
      ops: zk,
      basePath: '/zkrecipes-witnesses',
      aclFor: () => defaultAclProvider.defaultAcl(),
      currentSessionId: () => zk.sessionId,
      parentMode: 'CONTAINER',
      maxSlots: 64,
    }),
    retryPolicy: options.retryPolicy ?? immediateRetry(3),
    logger: silentLogger,
    errorPolicy: 'standard',
    aclProvider: options.aclProvider ?? defaultAclProvider,
    connectionState: {
      get state() {
        return states.value;
      },
      states: iterableObservable(states),
      changes,
      get isConnected() {
        return isConnected();
      },
      get sessionId() {
        return zk.sessionId;
      },
      stream: new ConnectionStream({
        changes,
        currentState: () => states.value,
        isConnected,
        errorPolicy: 'standard',
        validUntilMs: () => Infinity,
        closing: closed.signal,
        report: (error, where) => unhandledSubject.next({ error, context: where }),
        firstConnection: new FirstConnection({
          changes,
          closing: closed.signal,
          started: () => started,
          connectionTimeoutMs: 15_000,
          notConnected: () => new Error('not connected'),
          authFailure: () => undefined,
        }),
      }),
      sessionCredentials: () => ({ sessionId: zk.sessionId, password: Buffer.alloc(16, 7) }),
      validUntilMs: () => Infinity,
      firstConnection: () => Promise.resolve(),
      blockUntilConnected: () => Promise.resolve(true),
    },
    schemaSet: undefined,
    addAuth: () => Promise.resolve(),
    reportUnhandledError: (error, where) => unhandledSubject.next({ error, context: where }),
    unhandledErrors: iterableObservable(unhandledSubject.asObservable()),
    closedSignal: closed.signal,
    callOrder: new CallOrderGate(closed.signal),
    watchBudget: () => ({ budgetBytes: 512 * 1024, usedBytes: 0 }),
    maxRequestBytes: 1_048_575,
    chrootBytes: 0,
    chroot: undefined,
    servers: () => servers,
    updateServers: (next) => {
      servers = [...next];
    },
    telemetry: new ClientTelemetries(),
    health: () =>
      healthOf({
        history,
        started: () => started,
        closed: () => closed.signal.aborted,
        connected: isConnected,
        connectionState: () => states.value,
        sessionId: () => zk.sessionId,
        lastHeardMs: () => undefined,
        lastConnectionFailure: () => undefined,
        watchBudget: () => ({ budgetBytes: 512 * 1024, usedBytes: 0 }),
      }),
    useContainerParents: options.useContainerParents ?? true,
    compression: { provider: new GzipCompressionProvider(), enabled: false },
  };
  const lifecycle = {
    closeCalls: 0,
    get started() {
      return started;
    },
    get closed() {
      return closed.signal.aborted;
    },
    start(): Promise<void> {
      started = true;
      return Promise.resolve();
    },
    close(): Promise<void> {
      lifecycle.closeCalls++;
      closed.abort();
      return Promise.resolve();
    },
  };
  const client = new FrameworkClient(context, lifecycle, options.namespace);
  if (options.start ?? true) await client.start();
  return {
    zk,
    context,
    lifecycle,
    client,
    unhandled,
    emitState(state) {
      states.next(state);
      changes.next({ state, sessionId: zk.sessionId, newSession: false });
    },
  };
}

/** Waits (yielding to the event loop) until `condition` holds; fails after `timeoutMs`. */
export async function waitUntil(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error('waitUntil: condition not met in time');
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
