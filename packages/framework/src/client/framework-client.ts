import { Buffer } from 'node:buffer';
import { resolveAcl } from './acl-provider.js';
import type { IterableObservable } from '../streams/iterable-observable.js';
import type { ClientContext, ClientLifecycle, UnhandledError } from './client-context.js';
import type { WatchBudget } from '../zk/watch-registry.js';
import { createAttempt, prepareCreate } from './create-node.js';
import { splitPath } from '../paths/zk-paths.js';
import { bodyBytes, checkRequestSize, multiBytes, type RequestShape } from './request-size.js';
import { deleteNode } from './delete-node.js';
import { ensurePath } from './ensure-path.js';
import { guaranteedDeleteQueueFor } from './guaranteed-delete-queue.js';
import { NamespaceMapper } from './namespace-mapper.js';
import {
  PersistentWatch,
  checkPersistentWatchMode,
  type AddWatchOptions,
  type PersistentWatchListener,
} from './persistent-watch.js';
import type {
  BlockUntilConnectedOptions,
  ChildrenWithStat,
  CreatedWithStat,
  CreateOptions,
  OperationOptions,
  DeleteOptions,
  ExistsOptions,
  GetDataOptions,
  SetDataOptions,
  TransactionOptions,
  GetChildrenOptions,
  VersionOptions,
  WatchOptions,
  StartOptions,
} from './operation-options.js';
import {
  subscribeStateListener,
  type StateChangedListener,
} from '../state/subscribe-state-listener.js';
import type { TransactionOp, TransactionResult } from './transaction-op.js';
import { fromWireResults, toWireTransaction } from './transaction-wire.js';
import { TransactionFailedError } from '../errors/transaction-failed-error.js';
import { IdempotentWrite } from './idempotent-write.js';
import { statAfterLostReply, transactionResultsAfterLostReply } from './lost-reply-results.js';
import { WriteAmbiguity } from './write-ambiguity.js';
import type { WriteWitnesses } from './write-witnesses.js';
import { OutcomeUnknownError } from '../errors/outcome-unknown-error.js';
import { compressorFor, decompressData, toSentData } from './data-compression.js';
import type { CompressionProvider } from '../compression/compression-provider.js';
import { checkAcl, checkFlag, checkSignal, checkWatcher } from './check-operation-input.js';
import { wrapWatcher } from './wrap-watcher.js';
import { checkTransactionSchema } from './check-transaction-schema.js';
import { checkAuth } from './check-auth.js';
import {
  configFromReply,
  reconfigRequest,
  serversOfUpdate,
  checkGetConfigOptions,
  type EnsembleConfigWithStat,
  type GetConfigOptions,
  type ReconfigOptions,
} from './ensemble-operations.js';
import { CONFIG_NODE, formatServer } from '../paths/ensemble-config.js';
import { connectionBoundSignal } from '../state/connection-bound-signal.js';
import { checkEventListener, checkListener, checkOptionsObject } from '../checks/option-checks.js';
import { ClosedError, IllegalStateError } from '../errors/zookeeper-error-classes.js';
import { isBadVersion, isNodeExists, isNoNode, isRetryable } from '../errors/predicates.js';
import { isBeforeFirstConnection } from '../errors/never-sent.js';
import type { Logger } from '../logging/logger.js';
import { validateTimeoutMs, validateVersion } from '../checks/validate-number.js';
import { isAbortOf } from '../async/until-aborted.js';
import { retryLoop } from '../retry/retry-loop.js';
import type { RetryPolicy } from '../retry/retry-policy.js';
import type { ConnectionState, ErrorPolicy } from '../state/connection-state.js';
import type { ClientHealth } from '../health/client-health.js';
import type { ClientTelemetries } from '../telemetry/client-telemetries.js';
import type { ConnectionStream } from '../state/connection-stream.js';
import type {
  Acl,
  SessionCredentials,
  Stat,
  Watcher,
  WireTransactionOp,
  WireTransactionResult,
} from '../zk/zookeeper-types.js';

/** Curator's `CuratorFrameworkState`. */
export type FrameworkState = 'LATENT' | 'STARTED' | 'STOPPED';

/**
 * @internal The key of the method that gives the client's telemetry to recipes (`telemetryOf`
 * in recipe-support). A method rather than a private-field accessor, so it also works through
 * a Proxy around the client.
 */
export const TELEMETRY: unique symbol = Symbol('zkrecipes.telemetry');
/** @internal The key of the client's write witnesses (recipe-support's `prepareIdempotentWrites`). */
export const WRITE_WITNESSES: unique symbol = Symbol('zkrecipes.write-witnesses');
/** @internal The key of the client's connection stream (recipe-support's `connectionStreamOf`). */
export const CONNECTION_STREAM: unique symbol = Symbol('zkrecipes.connection-stream');
/** @internal The key of the client's failure report (recipe-support's `reportRecipeFailure`). */
export const REPORT_UNHANDLED: unique symbol = Symbol('zkrecipes.report-unhandled');

// Views made by usingNamespace: they share the root's connection and must not start or close it.
/**
 * Retryable errors, but for the wait for a first connection that never came: the client has
 * not reached the ensemble once, so a retry would only wait again; the caller hears why now.
 */
function retryableOnceConnected(error: unknown): boolean {
  return isRetryable(error) && !isBeforeFirstConnection(error);
}

const views = new WeakSet<FrameworkClient>();

/**
 * The client (Curator's `CuratorFramework`): ZooKeeper operations with validation, retries,
 * namespaces, protected creates and guaranteed deletes, over one shared connection. Get one
 * from `createFramework`; `usingNamespace` gives views of the same connection.
 *
 * Every operation validates its input before anything is sent (an InvalidArgumentError says
 * what was wrong), rejects with ClosedError once the client is closed, and runs through the
 * retry loop with the client's retry policy. Paths are relative to the namespace, both ways;
 * error paths are server paths, as in Curator's KeeperException.
 */
export class FrameworkClient {
  readonly #context: ClientContext;
  readonly #lifecycle: ClientLifecycle;
  readonly #mapper: NamespaceMapper;
  readonly #logger: Logger;
  #namespaceReady: Promise<void> | undefined;
  #namespaceMade = false;

  /**
   * Not for direct use: get a client from `createFramework` and views from `usingNamespace`.
   *
   * @internal
   */
  constructor(context: ClientContext, lifecycle: ClientLifecycle, namespace: string | undefined) {
    this.#mapper = new NamespaceMapper(namespace);
    this.#context = context;
    this.#lifecycle = lifecycle;
    this.#logger = context.logger.child({ component: 'FrameworkClient' });
  }

  /** The namespace paths are relative to (no leading "/"), or undefined. */
  get namespace(): string | undefined {
    return this.#mapper.namespace;
  }

  /** LATENT before start(), STARTED, then STOPPED after close(). */
  get state(): FrameworkState {
    if (this.#lifecycle.closed) return 'STOPPED';
    return this.#lifecycle.started ? 'STARTED' : 'LATENT';
  }

  /** The current connection state; undefined before the first connection and after close(). */
  get connectionState(): ConnectionState | undefined {
    if (this.#lifecycle.closed) return undefined;
    return this.#context.connectionState.state;
  }

  /** Connection states over time; replays the current one to each new subscriber. */
  get connectionStates(): IterableObservable<ConnectionState> {
    return this.#context.connectionState.states;
  }

  /** Background failures (throwing listeners and watchers, failed background deletes). */
  get unhandledErrors(): IterableObservable<UnhandledError> {
    return this.#context.unhandledErrors;
  }

  /**
   * The watch budget and how much of it is in use: a recipe that adds many watches (a cache's
   * data watches) should stop short of it so the watches it cannot do without still fit.
   */
  get watchBudget(): WatchBudget {
    return this.#context.watchBudget();
  }

  /**
   * True while a connection is up and proven: a request goes out at once instead of waiting
   * for a connection. False before the first connection, while SUSPENDED or LOST, after close.
   */
  get isConnected(): boolean {
    return !this.#lifecycle.closed && this.#context.connectionState.isConnected;
  }

  /**
   * Until when (a `performance.now()` instant) whatever this session holds (ephemeral nodes:
   * a lock, a lease, leadership) is known to be sound, under the client's error policy: the
   * send time of the newest request the server answered, plus the policy's window ('session':
   * `sessionExpirationPercent` of the negotiated timeout, the instant this client declares
   * LOST; 'standard': two thirds of it, the instant a silent connection is declared dead).
   * -Infinity while the policy's error state holds (SUSPENDED or LOST for 'standard', LOST for
   * 'session'), before the first connection and after close.
   *
   * It needs no timer: right after an event-loop stall, `performance.now() < client.validUntilMs`
   * already says false, before the stall detector or the LOST timer have had a chance to run.
   */
  get validUntilMs(): number {
    return this.#context.connectionState.validUntilMs();
  }

  /**
   * A snapshot of the client's health: lifecycle and connection state, session id and age, how
   * long ago the server was last heard, SUSPENDED/RECONNECTED/LOST counts, event-loop stalls,
   * the watch budget. JSON-friendly; see `readinessHandler` for an HTTP readiness probe.
   */
  health(): ClientHealth {
    return this.#context.health();
  }

  /**
   * True when the client is started, not closed, and connected (the connection is up and
   * proven): what a readiness probe asks. Same as `health().ready`, without the snapshot.
   */
  isReady(): boolean {
    return this.#lifecycle.started && this.isConnected;
  }

  /** @internal See `telemetryOf` in recipe-support. */
  [TELEMETRY](): ClientTelemetries {
    return this.#context.telemetry;
  }

  /** @internal See `prepareIdempotentWrites` in recipe-support. */
  [WRITE_WITNESSES](): WriteWitnesses {
    return this.#context.witnesses;
  }

  /** @internal See `connectionStreamOf` in recipe-support. */
  [CONNECTION_STREAM](): ConnectionStream {
    return this.#context.connectionState.stream;
  }

  /** @internal See `reportRecipeFailure` in recipe-support. */
  [REPORT_UNHANDLED](error: unknown, context: string): void {
    this.#context.reportUnhandledError(error, context);
  }

  /** The session id in force, undefined before the first connection. */
  get sessionId(): bigint | undefined {
    return this.#context.connectionState.sessionId;
  }

  /** The session id and password (what `@zkrecipes/testing`'s killSession needs). */
  sessionCredentials(): SessionCredentials | undefined {
    return this.#context.connectionState.sessionCredentials();
  }

  /** The logger given to createFramework; recipes log through `logger.child({ component, path })`. */
  get logger(): Logger {
    return this.#context.logger;
  }

  /** The retry policy every operation of this client (and its namespace views) runs under. */
  get retryPolicy(): RetryPolicy {
    return this.#context.retryPolicy;
  }

  /**
   * True when the client was made with `compressionEnabled` (Curator's `compressionEnabled()`):
   * creates, setData, transaction writes and getData compress and decompress unless a call
   * says `compressed: false`.
   */
  get compressionEnabled(): boolean {
    return this.#context.compression.enabled;
  }

  /** The provider `compressed` data goes through (createFramework's `compressionProvider`). */
  get compressionProvider(): CompressionProvider {
    return this.#context.compression.provider;
  }

  /** Which states recipes treat as "what I held may be gone" (see `isErrorState`). */
  get errorPolicy(): ErrorPolicy {
    return this.#context.errorPolicy;
  }

  /**
   * Curator's `getConnectionStateListenable().addListener`. The listener runs asynchronously
   * (never inside the connection's own stack); a throw or rejection goes to
   * {@link unhandledErrors} and cannot affect the client or other listeners. Returns the
   * function that removes it.
   */
  on(event: 'stateChanged', listener: StateChangedListener): () => void {
    checkEventListener('stateChanged', event, listener);
    return subscribeStateListener(this.#context.connectionState.changes, listener, (error, where) =>
      this.#context.reportUnhandledError(error, where),
    );
  }

  /**
   * A view of the same connection under another namespace (Curator's `usingNamespace`): the
   * namespace replaces this client's, it does not nest; `undefined` means none. The view has
   * no lifecycle of its own: start() and close() belong to the client that created it.
   */
  usingNamespace(namespace: string | undefined): FrameworkClient {
    const view = new FrameworkClient(this.#context, this.#lifecycle, namespace);
    views.add(view);
    return view;
  }

  /**
   * Begins connecting (Curator's `start()`) and resolves at once; a second call rejects.
   *
   * Given options (`start({ timeoutMs: 10_000 })`), it also waits for the first connection and
   * rejects when none comes within `timeoutMs` (default: connectionTimeoutMs) with a
   * ConnectionLossError saying which servers were tried and why they failed (`cause`: e.g.
   * ECONNREFUSED, ENOTFOUND), with the AuthFailedError when the credentials are refused, or with
   * `signal.reason`; the client is then closed. See docs/framework/connection-states.md.
   */
  async start(options?: StartOptions): Promise<void> {
    if (views.has(this)) {
      throw new IllegalStateError('start the client that created this view (usingNamespace)');
    }
    if (options !== undefined) {
      checkOptionsObject(options);
      if (options.timeoutMs !== undefined) validateTimeoutMs('timeoutMs', options.timeoutMs);
      checkSignal(options.signal);
    }
    await this.#lifecycle.start();
    if (options === undefined) return;
    try {
      await this.#context.connectionState.firstConnection(options);
    } catch (error) {
      await this.#lifecycle.close();
      throw error;
    }
  }

  /** Closes the session (its ephemeral nodes go at once) and stops background work; twice is a no-op. */
  close(): Promise<void> {
    if (views.has(this)) {
      return Promise.reject(
        new IllegalStateError('close the client that created this view (usingNamespace)'),
      );
    }
    return this.#lifecycle.close();
  }

  /** `await using client = ...` closes the client; disposing a view does nothing (it owns nothing). */
  [Symbol.asyncDispose](): Promise<void> {
    return views.has(this) ? Promise.resolve() : this.#lifecycle.close();
  }

  /**
   * Resolves true once connected; false when `timeoutMs` passes first or the client closes;
   * rejects with `signal.reason` when `signal` aborts first.
   */
  async blockUntilConnected(options: BlockUntilConnectedOptions = {}): Promise<boolean> {
    checkOptionsObject(options);
    const { timeoutMs, signal } = options;
    if (timeoutMs !== undefined) validateTimeoutMs('timeoutMs', timeoutMs);
    checkSignal(signal);
    signal?.throwIfAborted();
    return this.#context.connectionState.blockUntilConnected(timeoutMs, signal);
  }

  /**
   * Creates a node and resolves the path actually created (with a sequence number, with the
   * protection prefix; namespace removed). See docs/framework/operations.md.
   */
  create(
    path: string,
    options?: CreateOptions & { readonly stat?: false | undefined },
  ): Promise<string>;
  /** Creates a node and resolves the path actually created and the new node's Stat (create2). */
  create(path: string, options: CreateOptions & { readonly stat: true }): Promise<CreatedWithStat>;
  create(path: string, options?: CreateOptions): Promise<string | CreatedWithStat>;
  async create(path: string, options: CreateOptions = {}): Promise<string | CreatedWithStat> {
    const request = prepareCreate(path, options, this.#mapper, this.#context);
    const { data, acl } = request;
    this.#context.schemaSet?.getSchema(path).validateCreate(request.mode, path, data, acl);
    this.#checkSize('create', path, { pathBytes: this.#wireBytes(request.sendPath), data, acl });
    const write = request.idempotent
      ? this.#idempotentWrite('create', request.sendPath)
      : new WriteAmbiguity();
    const deps = {
      ops: this.#context.ops,
      parentAcl: (parent: string) => resolveAcl(this.#context.aclProvider, parent),
      currentSessionId: () => this.#context.connectionState.sessionId,
      logger: this.#logger,
      write,
    };
    try {
      // Bound rather than wrapped in an arrow: one frame less between the call and the socket.
      const attempt = createAttempt.bind(undefined, deps, request);
      const created = await this.#run('create', path, attempt, request.signal);
      const sequential = request.mode.includes('SEQUENTIAL');
      if (
        write instanceof WriteAmbiguity &&
        write.ambiguous &&
        sequential &&
        !request.protectedId
      ) {
        // Nothing can tell whether the lost attempt made a node too: say so (see
        // docs/framework/operations.md; `idempotent: true` makes exactly one).
        this.#logger.warn(
          'a sequential create was retried after a lost reply: it may have made a second node',
          { path: created.path },
        );
      }
      const clientPath = this.#mapper.toClient(created.path);
      return created.stat === undefined ? clientPath : { path: clientPath, stat: created.stat };
    } catch (error) {
      // Curator's FindAndDeleteProtectedNodeInBackground: the outcome is unknown and the caller
      // got an error (a lost connection, or an abort while the request was out), so a node we
      // may have made would be orphaned (for a lock: a place in line nobody owns). Remove it in
      // the background.
      if (
        request.protectedId !== undefined &&
        (isRetryable(error) || isAbortOf(error, request.signal)) &&
        !this.#lifecycle.closed
      ) {
        guaranteedDeleteQueueFor(this.#context).add({
          kind: 'protected',
          parentPath: splitPath(request.path).parent,
          uuid: request.protectedId,
        });
      }
      throw error;
    } finally {
      if (write instanceof IdempotentWrite) write.finish();
    }
  }

  /** Deletes a node; see {@link DeleteOptions} for guaranteed, deleteChildren and quietly. */
  async delete(path: string, options: DeleteOptions = {}): Promise<void> {
    checkOptionsObject(options);
    const serverPath = this.#mapper.toServer(path, { allowRoot: false });
    const { version = -1, guaranteed = false, deleteChildren = false, quietly = false } = options;
    const { signal } = options;
    validateVersion(version);
    checkFlag('guaranteed', guaranteed);
    checkFlag('deleteChildren', deleteChildren);
    checkFlag('quietly', quietly);
    checkFlag('idempotent', options.idempotent);
    checkSignal(signal);
    this.#context.schemaSet?.getSchema(path).validateDelete(path);
    const write =
      options.idempotent === true
        ? this.#idempotentWrite('delete', serverPath)
        : new WriteAmbiguity();
    const deleteOnce = (): Promise<void> =>
      write instanceof IdempotentWrite
        ? write.attemptOne({ type: 'delete', path: serverPath, version }, signal).then(() => {})
        : write.attempt(this.#context.ops.delete(serverPath, version, signal));
    try {
      await this.#run(
        'delete',
        path,
        () =>
          deleteNode(
            this.#context.ops,
            serverPath,
            { version, deleteChildren, quietly },
            signal,
            deleteOnce,
          ),
        signal,
      );
    } catch (error) {
      // After a lost reply, no node is what an unversioned delete wants, whoever deleted it (as
      // Curator's guaranteed delete); a versioned one cannot tell whose delete that was.
      if (write instanceof WriteAmbiguity && write.ambiguous) {
        if (isNoNode(error) && version === -1) return;
        if (isNoNode(error) || isBadVersion(error)) {
          throw new OutcomeUnknownError({ operation: 'delete', path: serverPath, answer: error });
        }
      }
      // Given up on (a lost connection, or an abort before or after it was sent): a guaranteed
      // delete goes on in the background until the node is gone.
      if (
        guaranteed &&
        (isRetryable(error) || isAbortOf(error, signal)) &&
        !this.#lifecycle.closed
      ) {
        guaranteedDeleteQueueFor(this.#context).add({
          kind: 'delete',
          path: serverPath,
          version,
          deleteChildren,
        });
      }
      throw error;
    } finally {
      if (write instanceof IdempotentWrite) write.finish();
    }
  }

  /**
   * The node's Stat, or null when it does not exist (the watch then fires on its creation).
   * With `createParents`, the missing parents are made first (see {@link ExistsOptions}).
   */
  async exists(path: string, options: ExistsOptions = {}): Promise<Stat | null> {
    const serverPath = this.#readPath(path, options);
    checkFlag('createParents', options.createParents);
    checkFlag('containerParents', options.containerParents);
    const watcher = this.#watcher(options);
    const { signal } = options;
    if (options.createParents === true) {
      const mode =
        (options.containerParents ?? this.#context.useContainerParents)
          ? 'CONTAINER'
          : 'PERSISTENT';
      return this.#run(
        'exists',
        path,
        async () => {
          await this.#makeParents(serverPath, mode, signal);
          return this.#context.ops.exists(serverPath, watcher, signal);
        },
        signal,
      );
    }
    return this.#run(
      'exists',
      path,
      () => this.#context.ops.exists(serverPath, watcher, signal),
      signal,
    );
  }

  /** Curator's `ZKPaths.mkdirs` of the parent for exists: a parent that vanishes is no error. */
  async #makeParents(
    serverPath: string,
    mode: 'CONTAINER' | 'PERSISTENT',
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const { parent } = splitPath(serverPath);
    if (parent === '/') return;
    const aclFor = (level: string) => resolveAcl(this.#context.aclProvider, level);
    try {
      await ensurePath(this.#context.ops, parent, aclFor, signal, mode);
    } catch (error) {
      if (!isNodeExists(error) && !isNoNode(error)) throw error;
    }
  }

  /**
   * The node's data and Stat; rejects with NoNodeError when it does not exist. With
   * `compressed` (or a client with `compressionEnabled`), the data decompressed.
   */
  async getData(
    path: string,
    options: GetDataOptions = {},
  ): Promise<{
    /** The node's data (an empty buffer for a node created without data). */
    data: Buffer;
    /** The node's metadata at the time of the read. */
    stat: Stat;
  }> {
    const serverPath = this.#readPath(path, options);
    const compressor = compressorFor(this.#context.compression, options.compressed);
    const watcher = this.#watcher(options);
    const read = this.#run(
      'getData',
      path,
      () => this.#context.ops.getData(serverPath, watcher, options.signal),
      options.signal,
    );
    if (compressor === undefined) return read;
    const { data, stat } = await read;
    return { data: decompressData(compressor, path, serverPath, data), stat };
  }

  /** Replaces the node's data; resolves the new Stat. */
  async setData(path: string, data: Uint8Array, options: SetDataOptions = {}): Promise<Stat> {
    checkOptionsObject(options);
    const serverPath = this.#mapper.toServer(path);
    const compressor = compressorFor(this.#context.compression, options.compressed);
    const buffer = toSentData(data, path, false, compressor);
    const { version = -1, signal } = options;
    validateVersion(version);
    checkFlag('idempotent', options.idempotent);
    checkSignal(signal);
    this.#context.schemaSet?.getSchema(path).validateGeneral(path, buffer, undefined);
    this.#checkSize('setData', path, { pathBytes: this.#wireBytes(serverPath), data: buffer });
    if (options.idempotent === true) {
      const write = this.#idempotentWrite('setData', serverPath);
      const op = { type: 'setData', path: serverPath, data: buffer, version } as const;
      try {
        const outcome = await this.#run(
          'setData',
          path,
          () => write.attemptOne(op, signal),
          signal,
        );
        if (outcome.applied === 'now') return (outcome.results[0] as { stat: Stat }).stat;
        return await this.#run(
          'setData',
          path,
          () => statAfterLostReply(this.#context.ops, serverPath, outcome, version, signal),
          signal,
        );
      } finally {
        write.finish();
      }
    }
    const ambiguity = new WriteAmbiguity();
    try {
      return await this.#run(
        'setData',
        path,
        () => ambiguity.attempt(this.#context.ops.setData(serverPath, buffer, version, signal)),
        signal,
      );
    } catch (error) {
      throw ambiguity.ambiguous && (isBadVersion(error) || isNoNode(error))
        ? new OutcomeUnknownError({ operation: 'setData', path: serverPath, answer: error })
        : error;
    }
  }

  /** The names of the node's children (unsorted, as the server returns them). */
  getChildren(
    path: string,
    options?: GetChildrenOptions & { readonly stat?: false | undefined },
  ): Promise<string[]>;
  /** The names of the node's children and the node's Stat. */
  getChildren(
    path: string,
    options: GetChildrenOptions & { readonly stat: true },
  ): Promise<ChildrenWithStat>;
  getChildren(path: string, options?: GetChildrenOptions): Promise<string[] | ChildrenWithStat>;
  async getChildren(
    path: string,
    options: GetChildrenOptions = {},
  ): Promise<string[] | ChildrenWithStat> {
    const serverPath = this.#readPath(path, options);
    checkFlag('stat', options.stat);
    const watcher = this.#watcher(options);
    const result = await this.#run(
      'getChildren',
      path,
      () => this.#context.ops.getChildren(serverPath, watcher, options.signal),
      options.signal,
    );
    return options.stat === true ? result : result.children;
  }

  /** The node's ACL and Stat. */
  async getAcl(
    path: string,
    options: OperationOptions = {},
  ): Promise<{
    /** The node's access-control list. */
    acl: Acl[];
    /** The node's metadata; `stat.aversion` is the version a conditional `setAcl` needs. */
    stat: Stat;
  }> {
    checkOptionsObject(options);
    const serverPath = this.#mapper.toServer(path);
    const { signal } = options;
    checkSignal(signal);
    return this.#run('getAcl', path, () => this.#context.ops.getAcl(serverPath, signal), signal);
  }

  /** Replaces the node's ACL; `version` is the ACL version (aversion). Resolves the new Stat. */
  async setAcl(path: string, acl: readonly Acl[], options: VersionOptions = {}): Promise<Stat> {
    checkOptionsObject(options);
    const serverPath = this.#mapper.toServer(path);
    checkAcl(acl, path);
    const { version = -1, signal } = options;
    validateVersion(version);
    checkSignal(signal);
    this.#context.schemaSet?.getSchema(path).validateGeneral(path, undefined, acl);
    this.#checkSize('setAcl', path, { pathBytes: this.#wireBytes(serverPath), acl });
    const ambiguity = new WriteAmbiguity();
    try {
      return await this.#run(
        'setAcl',
        path,
        () => ambiguity.attempt(this.#context.ops.setAcl(serverPath, acl, version, signal)),
        signal,
      );
    } catch (error) {
      throw ambiguity.ambiguous && (isBadVersion(error) || isNoNode(error))
        ? new OutcomeUnknownError({ operation: 'setAcl', path: serverPath, answer: error })
        : error;
    }
  }

  /**
   * Runs ops atomically (ZooKeeper's multi; build them with `op`). Every op is validated first.
   * A failure rejects with a TransactionFailedError naming the failing op; nothing was applied.
   */
  async transaction(
    ops: readonly TransactionOp[],
    options: TransactionOptions = {},
  ): Promise<TransactionResult[]> {
    const { aclProvider, compression } = this.#context;
    const wireOps = toWireTransaction(ops, this.#mapper, aclProvider, compression);
    checkOptionsObject(options);
    const { signal } = options;
    checkFlag('idempotent', options.idempotent);
    checkSignal(signal);
    const { schemaSet } = this.#context;
    if (schemaSet !== undefined) checkTransactionSchema(schemaSet, ops, wireOps);
    const size = multiBytes(wireOps, (opPath) => this.#wireBytes(opPath));
    checkRequestSize('transaction', size, this.#context.maxRequestBytes, undefined);
    if (wireOps.length === 0) {
      return this.#run('transaction', undefined, () => Promise.resolve([]), signal);
    }
    const results =
      options.idempotent === true
        ? await this.#idempotentTransaction(wireOps, signal)
        : await this.#transactionOnce(wireOps, signal);
    return fromWireResults(results, wireOps, this.#mapper);
  }

  async #transactionOnce(
    wireOps: readonly WireTransactionOp[],
    signal: AbortSignal | undefined,
  ): Promise<WireTransactionResult[]> {
    const ambiguity = new WriteAmbiguity();
    try {
      return await this.#run(
        'transaction',
        undefined,
        () => ambiguity.attempt(this.#context.ops.multi(wireOps, signal)),
        signal,
      );
    } catch (error) {
      throw ambiguity.ambiguous && error instanceof TransactionFailedError
        ? new OutcomeUnknownError({ operation: 'transaction', path: error.path, answer: error })
        : error;
    }
  }

  async #idempotentTransaction(
    wireOps: readonly WireTransactionOp[],
    signal: AbortSignal | undefined,
  ): Promise<WireTransactionResult[]> {
    const write = this.#idempotentWrite('transaction', undefined);
    try {
      const outcome = await this.#run(
        'transaction',
        undefined,
        () => write.attempt(wireOps, signal),
        signal,
      );
      if (outcome.applied === 'now') return outcome.results;
      return await this.#run(
        'transaction',
        undefined,
        () => transactionResultsAfterLostReply(this.#context.ops, wireOps, outcome, signal),
        signal,
      );
    } finally {
      write.finish();
    }
  }

  #idempotentWrite(operation: string, serverPath: string | undefined): IdempotentWrite {
    return new IdempotentWrite(
      {
        ops: this.#context.ops,
        witnesses: this.#context.witnesses,
        currentSessionId: () => this.#context.connectionState.sessionId,
      },
      operation,
      serverPath,
    );
  }

  /**
   * Adds credentials to the session (ZooKeeper's `addAuthInfo`, which Curator reaches through
   * `getZookeeperClient().getZooKeeper()`): sent to the current session, and to every later
   * connection and session, ahead of anything else it sends (as `authInfo` is). Resolves once
   * the server accepted them. While disconnected it waits for a connection like any operation,
   * bounded by `connectionTimeoutMs`, the retry policy and `signal`. A refusal (an unknown
   * scheme) rejects with AuthFailedError and, as with `authInfo`, is terminal: the server
   * closes the connection and the client goes LOST for good. `auth` strings are sent as UTF-8;
   * a `digest` auth must read `user:password`.
   */
  async addAuth(
    scheme: string,
    auth: string | Uint8Array,
    options: OperationOptions = {},
  ): Promise<void> {
    checkOptionsObject(options);
    const bytes = checkAuth(scheme, auth);
    const { signal } = options;
    checkSignal(signal);
    await this.#run(
      'addAuth',
      undefined,
      () => this.#context.addAuth(scheme, bytes, signal),
      signal,
    );
  }

  /**
   * ZooKeeper's sync (Curator's `sync()`): resolves once the server this client is connected to
   * has caught up with the leader as of this call, so a read made after it sees every write
   * committed before it, by any client. `path` is validated and sent as ZooKeeper's API asks;
   * the server syncs the whole tree.
   */
  async sync(path: string, options: OperationOptions = {}): Promise<void> {
    checkOptionsObject(options);
    const serverPath = this.#mapper.toServer(path);
    const { signal } = options;
    checkSignal(signal);
    await this.#run('sync', path, () => this.#context.ops.sync(serverPath, signal), signal);
  }

  /**
   * This session's ephemeral nodes whose path starts with `prefixPath` (ZooKeeper 3.6+
   * `ZooKeeper.getEphemerals`; Curator has no such call), in this client's namespace. The match
   * is a string prefix, as the server does it: `'/lock'` also finds `/locks/a`. Default `'/'`:
   * all of this session's ephemerals in the namespace.
   */
  async getEphemerals(prefixPath = '/', options: OperationOptions = {}): Promise<string[]> {
    checkOptionsObject(options);
    const serverPath = this.#mapper.toServer(prefixPath);
    const { signal } = options;
    checkSignal(signal);
    const root = this.#mapper.rootPath;
    const found = await this.#run(
      'getEphemerals',
      prefixPath,
      () => this.#context.ops.getEphemerals(serverPath, signal),
      signal,
    );
    // '/' in namespace 'app' asks the server for the prefix '/app', which also matches '/apple'.
    const inNamespace =
      root === undefined ? found : found.filter((p) => p === root || p.startsWith(`${root}/`));
    return inNamespace.map((p) => this.#mapper.toClient(p));
  }

  /**
   * How many nodes there are below `path`, at any depth (ZooKeeper 3.6+
   * `ZooKeeper.getAllChildrenNumber`; Curator has no such call). Counted by the server in one
   * request.
   */
  async getAllChildrenNumber(path: string, options: OperationOptions = {}): Promise<number> {
    checkOptionsObject(options);
    const serverPath = this.#mapper.toServer(path);
    const { signal } = options;
    checkSignal(signal);
    return this.#run(
      'getAllChildrenNumber',
      path,
      () => this.#context.ops.getAllChildrenNumber(serverPath, signal),
      signal,
    );
  }

  /**
   * Adds a persistent watch (ZooKeeper 3.6+ `addWatch`, Curator's `watchers().add()`):
   * `listener` gets every change under `path` (or of `path` alone, mode `PERSISTENT`) until
   * the returned watch is removed, across reconnects and new sessions. Resolves once the server
   * holds it.
   */
  async addWatch(
    path: string,
    listener: PersistentWatchListener,
    options: AddWatchOptions = {},
  ): Promise<PersistentWatch> {
    checkOptionsObject(options);
    const serverPath = this.#mapper.toServer(path);
    checkListener(listener);
    const mode = checkPersistentWatchMode(options.mode);
    const { signal } = options;
    checkSignal(signal);
    this.#assertUsable(path);
    const { ops } = this.#context;
    const unlisten = ops.listenPersistently(serverPath, mode, (event) =>
      listener({ type: event.type, path: this.#mapper.toClient(event.path) }),
    );
    const watch = new PersistentWatch(path, mode, async () => {
      if (!unlisten()) return;
      // A server watch lives on its connection: when that is gone, so is the watch, and a
      // removal worth waiting for only while connected never waits out an outage.
      const connection = connectionBoundSignal(this.#context.connectionState.stream);
      try {
        await this.#run(
          'removeWatches',
          path,
          () => ops.removeWatches(serverPath, connection.signal),
          connection.signal,
        );
      } catch (error) {
        if (!isAbortOf(error, connection.signal)) throw error;
      } finally {
        connection.dispose();
      }
    });
    try {
      await this.#run('addWatch', path, () => ops.addWatch(serverPath, mode, signal), signal);
    } catch (error) {
      unlisten();
      throw error;
    }
    return watch;
  }

  /**
   * The ensemble's configuration (ZooKeeper 3.5+ `getConfig`, Curator's `getConfig()`): the
   * members of /zookeeper/config, read on the server's root whatever the connect string's
   * chroot or this client's namespace. See docs/framework/ensembles.md.
   */
  async getConfig(options: GetConfigOptions = {}): Promise<EnsembleConfigWithStat> {
    checkGetConfigOptions(options);
    const { signal } = options;
    const watcher =
      options.watch === undefined || signal?.aborted === true
        ? undefined
        : wrapWatcher(options.watch, {
            toClient: (serverPath) => serverPath,
            report: (error, where) => this.#context.reportUnhandledError(error, where),
            signal,
          });
    const reply = await this.#run(
      'getConfig',
      CONFIG_NODE,
      () => this.#context.ops.getConfig(watcher, signal),
      signal,
    );
    return configFromReply(reply);
  }

  /**
   * Changes the ensemble's membership (ZooKeeper 3.5+ `reconfig`, Curator's `reconfig()`):
   * servers `joining` and `leaving`, or the whole new list of `members`, optionally only from
   * the configuration version `fromConfig`. Resolves the new configuration. The servers must
   * run with `reconfigEnabled=true` (RECONFIG_DISABLED otherwise) and the session must be
   * allowed to write /zookeeper/config (a superuser, NO_AUTH otherwise).
   */
  async reconfig(options: ReconfigOptions): Promise<EnsembleConfigWithStat> {
    const request = reconfigRequest(options);
    const { signal } = options;
    const ambiguity = new WriteAmbiguity();
    try {
      const reply = await this.#run(
        'reconfig',
        CONFIG_NODE,
        () => ambiguity.attempt(this.#context.ops.reconfig(request, signal)),
        signal,
      );
      return configFromReply(reply);
    } catch (error) {
      throw ambiguity.ambiguous && isBadVersion(error)
        ? new OutcomeUnknownError({ operation: 'reconfig', path: CONFIG_NODE, answer: error })
        : error;
    }
  }

  /**
   * Connects to these servers from the next connection attempt on, for this session and any
   * later one (kazoo's `set_hosts`); the current connection and session stay. `connectString`
   * is `host:port[,...]`, with the client's own chroot or none. The ensemble tracker, when on,
   * replaces the list again at the next change of /zookeeper/config.
   */
  updateServers(connectString: string): void {
    this.#assertUsable(undefined);
    this.#context.updateServers(serversOfUpdate(connectString, this.#context.chroot));
  }

  /**
   * The connect string connection attempts use now: the servers of the connect string, of
   * the latest `updateServers`, or of the ensemble tracker, with the chroot.
   */
  get connectString(): string {
    const servers = this.#context.servers().map(formatServer).join(',');
    return `${servers}${this.#context.chroot ?? ''}`;
  }

  /** A server path's bytes on the wire, the connect string's chroot included. */
  #wireBytes(serverPath: string): number {
    return this.#context.chrootBytes + Buffer.byteLength(serverPath);
  }

  #checkSize(operation: string, path: string, shape: RequestShape): void {
    checkRequestSize(operation, bodyBytes(shape), this.#context.maxRequestBytes, path);
  }

  #readPath(path: string, options: WatchOptions): string {
    checkOptionsObject(options);
    const serverPath = this.#mapper.toServer(path);
    checkWatcher(options.watch);
    checkSignal(options.signal);
    this.#context.schemaSet?.getSchema(path).validateWatch(path, options.watch !== undefined);
    return serverPath;
  }

  #watcher(options: WatchOptions): Watcher | undefined {
    const { watch, signal } = options;
    // Already aborted: do not even leave a watch on the server.
    if (watch === undefined || signal?.aborted === true) return undefined;
    return wrapWatcher(watch, {
      toClient: (serverPath) => this.#mapper.toClient(serverPath),
      report: (error, where) => this.#context.reportUnhandledError(error, where),
      signal,
    });
  }

  /**
   * The common path of every operation after validation: state checks, namespace, retries.
   * The caller's `signal` and the client's close both end it at once: every request an attempt
   * awaits goes to the connection with `signal`, and the connection ends it when `signal`
   * aborts or the client closes, so the retry loop need not race the attempts. The first
   * attempt is sent synchronously, in call order; only a call that waits for its namespace
   * node (or behind one that does) takes a place in the client's line first (see
   * CallOrderGate).
   */
  async #run<T>(
    operation: string,
    path: string | undefined,
    attempt: (attempt: number) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    this.#assertUsable(path);
    signal?.throwIfAborted();
    const { closedSignal } = this.#context;
    const turn = this.#context.callOrder.enter(this.#namespaceWait(), signal);
    let running: Promise<T>;
    try {
      if (turn !== undefined) await turn.ready;
      running = retryLoop(attempt, {
        policy: this.#context.retryPolicy,
        signal,
        closedSignal,
        attemptsEndOnAbort: true,
        isRetryable: retryableOnceConnected,
        onRetry: ({ retryCount, delayMs, error }) =>
          this.#logger.debug(`retrying ${operation}`, { path, retryCount, delayMs, error }),
      });
    } catch (error) {
      throw this.#closedOr(error, path);
    } finally {
      turn?.done();
    }
    try {
      return await running;
    } catch (error) {
      throw this.#closedOr(error, path);
    }
  }

  /** What the loop rejects with when the client closes mid-operation becomes a ClosedError. */
  #closedOr(error: unknown, path: string | undefined): unknown {
    const { closedSignal } = this.#context;
    if (closedSignal.aborted && error === closedSignal.reason) {
      return new ClosedError({ path, cause: error });
    }
    return error;
  }

  #assertUsable(path: string | undefined): void {
    if (this.#lifecycle.closed || this.#context.closedSignal.aborted)
      throw new ClosedError({ path });
    if (!this.#lifecycle.started) {
      throw new IllegalStateError('the client is not started: call start() first', { path });
    }
  }

  /**
   * Curator creates the namespace node on first use, so `create('/a')` in namespace 'app'
   * works on an empty server. Once per client object; a failure is logged and the next
   * operation tries again (the operation itself then reports what is really wrong).
   * Undefined when there is nothing to wait for (no namespace, or its node is made).
   */
  #namespaceWait(): Promise<void> | undefined {
    const root = this.#mapper.rootPath;
    if (root === undefined || this.#namespaceMade) return undefined;
    // A CONTAINER unless the client opted out, as Curator's NamespaceImpl makes it.
    const mode = this.#context.useContainerParents ? 'CONTAINER' : 'PERSISTENT';
    this.#namespaceReady ??= retryLoop(
      () =>
        ensurePath(
          this.#context.ops,
          root,
          (level) => resolveAcl(this.#context.aclProvider, level),
          undefined,
          mode,
        ),
      { policy: this.#context.retryPolicy, signal: this.#context.closedSignal },
    ).then(
      () => {
        this.#namespaceMade = true;
      },
      (error: unknown) => {
        this.#namespaceReady = undefined;
        if (!this.#context.closedSignal.aborted) {
          this.#logger.warn('could not create the namespace node', { path: root, error });
        }
      },
    );
    return this.#namespaceReady;
  }
}
