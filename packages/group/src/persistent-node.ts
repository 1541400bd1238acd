import { randomUUID } from 'node:crypto';
import { Subject } from 'rxjs';
import {
  ClosedError,
  ConnectionState,
  CreateMode,
  type FrameworkClient,
  IllegalStateError,
  InvalidArgumentError,
  isClosed,
  type Logger,
  protectedNodeName,
  type SignalOptions,
  validateData,
  validatePath,
  type IterableObservable,
} from '@zkrecipes/framework';
import {
  assertClientStarted,
  booleanOption,
  checkClient,
  checkSignalOptions,
  checkEventListener,
  checkRecipeOptions,
  deleteOwnNode,
  EventDispatcher,
  connectionStreamOf,
  checkWaitOptions,
  describeValue,
  onAbort,
} from '@zkrecipes/framework/recipe-support';
import { RecipeState, type RecipeError } from '@zkrecipes/caches';
import { NodeKeeper } from './node-keeper.js';

/** Options of {@link PersistentNode}. */
export interface PersistentNodeOptions {
  /**
   * Curator's protected mode: the node is named `_c_<uuid>-<name>`, one UUID for the life of
   * this object, so a create whose reply was lost finds its node instead of making a second
   * one, and a node left by an earlier session of ours is recognised as ours. Default: false.
   */
  readonly protection?: boolean | undefined;
  /**
   * Create missing parents (as CONTAINER nodes, unless the client was made with
   * `useContainerParents: false`). Default: true (Curator's default).
   */
  readonly createParents?: boolean | undefined;
  /**
   * Whether `close()` deletes the node. `false` leaves it to the server (a CONTAINER goes once
   * emptied; PersistentTtlNode uses this, as Curator's overrides `deleteNode`). Default: true.
   */
  readonly deleteOnClose?: boolean | undefined;
}

/** Options of {@link PersistentNode.waitForInitialCreate}. */
export interface WaitForInitialCreateOptions {
  /** Give up (resolve false) after this long. Default: wait until created or closed. */
  readonly timeoutMs?: number | undefined;
  /** Aborting resolves false. Default: none. */
  readonly signal?: AbortSignal | undefined;
}

/** A Curator-style listener (`PersistentNodeListener.nodeCreated`), given the created path. */
export type PersistentNodeListener = (path: string) => unknown;

/**
 * A node that stays in place (Curator's `PersistentNode`): created on `start()`, re-created
 * whenever it is deleted and after a new session, with the data of the latest `setData()`,
 * and deleted by `close()`. Usually EPHEMERAL: a presence marker that lives as long as the
 * service, and comes back by itself after a session loss.
 *
 * Identity is kept: a sequential node, once created, is re-created under the same name (same
 * sequence number, and with protection the same UUID prefix), never as a second node.
 *
 * The old-session trap: after a new session, the previous session's ephemeral may still be on
 * the server (it has not expired it yet), and it will vanish when it does. Curator waits for
 * that and re-creates; here the node is replaced at once, atomically (one multi: delete that
 * version, create ours), so the node never goes missing. A node of another live session under
 * the same name is replaced once per session at most, so two misconfigured instances cannot
 * ping-pong; see docs/recipes/group.md.
 */
export class PersistentNode {
  readonly #client: FrameworkClient;
  readonly #basePath: string;
  readonly #mode: CreateMode;
  readonly #closer = new AbortController();
  readonly #dispatcher: EventDispatcher<string>;
  readonly #keeper: NodeKeeper;
  readonly #logger: Logger;
  readonly #deleteOnClose: boolean;
  #state: RecipeState = RecipeState.LATENT;
  #unsubscribeState: (() => void) | undefined;
  #closing: Promise<void> | undefined;
  #initialWaiters = new Set<(created: boolean) => void>();

  constructor(
    client: FrameworkClient,
    path: string,
    mode: CreateMode,
    data: Uint8Array = new Uint8Array(0),
    options: PersistentNodeOptions = {},
  ) {
    checkClient('PersistentNode', client);
    const sequential = mode === CreateMode.EPHEMERAL_SEQUENTIAL || mode === 'PERSISTENT_SEQUENTIAL';
    validatePath(path, { sequential });
    if (!Object.values(CreateMode).includes(mode)) {
      throw new InvalidArgumentError(`unknown create mode ${describeValue(mode)}`, { path });
    }
    if (mode === 'PERSISTENT_WITH_TTL' || mode === 'PERSISTENT_SEQUENTIAL_WITH_TTL') {
      throw new InvalidArgumentError(
        `PersistentNode does not keep ${mode} nodes (a TTL node is not re-created); ` +
          'use PersistentTtlNode for a node that lives as long as it is kept',
        { path },
      );
    }
    checkRequiredData(data, path);
    checkRecipeOptions('PersistentNode', options, ['protection', 'createParents', 'deleteOnClose']);
    const protection = booleanOption('protection', options.protection, false);
    const createParents = booleanOption('createParents', options.createParents, true);
    this.#deleteOnClose = booleanOption('deleteOnClose', options.deleteOnClose, true);
    this.#client = client;
    this.#basePath = path;
    this.#mode = mode;
    this.#logger = client.logger.child({ component: 'PersistentNode', path });
    this.#dispatcher = new EventDispatcher(new Subject(), client, 'nodeCreated listener');
    this.#keeper = new NodeKeeper(client, {
      basePath: path,
      mode,
      // Not sequential: the path is known up front (protected: with our own, fixed UUID).
      plainPath: sequential || !protection ? path : protectedPath(path),
      protection,
      createParents,
      deleteAfterStop: this.#deleteOnClose,
      data: Buffer.from(data),
      signal: this.#closer.signal,
      logger: this.#logger,
      onCreated: (created) => this.#dispatcher.emit(created),
      onReady: () => {
        for (const finish of [...this.#initialWaiters]) finish(true);
      },
      // A closed client fails what was in flight: expected at shutdown, not worth an error.
      report: (error, context) => {
        if (!isClosed(error)) this.#dispatcher.report(error, context);
      },
    });
  }

  /** LATENT until start(), STARTED, CLOSED after close(). */
  get state(): RecipeState {
    return this.#state;
  }

  /** The path this node was asked for (the prefix, for a sequential mode). */
  get basePath(): string {
    return this.#basePath;
  }

  /** The mode asked for (a re-creation under a known name uses its non-sequential form). */
  get mode(): CreateMode {
    return this.#mode;
  }

  /** The node's real path once created (sequence and protection prefix included), else undefined. */
  get actualPath(): string | undefined {
    return this.#state === RecipeState.CLOSED ? undefined : this.#keeper.actualPath;
  }

  /** A copy of the data the node is kept with (the latest `setData`). */
  get data(): Buffer {
    return Buffer.from(this.#keeper.data);
  }

  /** Curator's `getData()`: {@link data}. */
  getData(): Buffer {
    return this.data;
  }

  /** Curator's `getActualPath()`: {@link actualPath} (undefined where Curator gives null). */
  getActualPath(): string | undefined {
    return this.actualPath;
  }

  /** The path of each (re)creation of the node (listeners: `on('nodeCreated')`). */
  get createdPaths(): IterableObservable<string> {
    return this.#dispatcher.events;
  }

  /** Background failures: creates or writes that failed (they are retried), throwing listeners. */
  get errors(): IterableObservable<RecipeError> {
    return this.#dispatcher.errors;
  }

  /** Curator's `getListenable().addListener`; returns the function that removes it. */
  on(event: 'nodeCreated', listener: PersistentNodeListener): () => void {
    checkEventListener('nodeCreated', event, listener);
    return this.#dispatcher.add(listener);
  }

  /**
   * Starts keeping the node. Resolves at once: the create runs in the background (use
   * {@link waitForInitialCreate}). A second start rejects, and so does a start on a client not
   * started yet or closed, before anything (the node can be started once the client is).
   */
  start(): Promise<void> {
    if (this.#state !== RecipeState.LATENT) {
      return Promise.reject(
        new IllegalStateError(`start() on a ${this.#state} PersistentNode`, {
          path: this.#basePath,
        }),
      );
    }
    try {
      // Its create would fail in the background, out of the caller's sight.
      assertClientStarted(this.#client, this.#basePath);
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on unchanged (a ZooKeeperError)
      return Promise.reject(error);
    }
    this.#state = RecipeState.STARTED;
    this.#unsubscribeState = connectionStreamOf(this.#client).onState((state) => {
      // Curator re-creates on RECONNECTED; a new session also finds its old node here.
      if (state === ConnectionState.CONNECTED || state === ConnectionState.RECONNECTED) {
        this.#keeper.ensure();
      }
    });
    this.#keeper.start();
    return Promise.resolve();
  }

  /** Resolves true once the node has been created (or adopted), false on timeout or close. */
  waitForInitialCreate(options: WaitForInitialCreateOptions = {}): Promise<boolean> {
    checkWaitOptions(options);
    const { timeoutMs, signal } = options;
    if (this.#state === RecipeState.LATENT) {
      return Promise.reject(new IllegalStateError('waitForInitialCreate() before start()'));
    }
    if (this.#keeper.initialCreateDone) return Promise.resolve(true);
    if (this.#state === RecipeState.CLOSED || signal?.aborted) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const finish = (created: boolean): void => {
        clearTimeout(timer);
        stopListening?.();
        this.#initialWaiters.delete(finish);
        resolve(created);
      };
      const giveUp = (): void => finish(false);
      const timer = timeoutMs === undefined ? undefined : setTimeout(giveUp, timeoutMs);
      const stopListening = signal && onAbort(signal, giveUp);
      this.#initialWaiters.add(finish);
    });
  }

  /**
   * Sets the data the node is kept with and writes it. Resolves once the server holds it,
   * which may be after a reconnect or a re-creation (the data survives both); rejects with
   * ClosedError if closed first. Before start() it only sets the data of the first create.
   * Aborting `signal` ends the wait with its reason, not the write: the data stays set and is
   * written when the server can take it. Data that is not bytes or over `MAX_NODE_DATA_BYTES`
   * rejects with InvalidArgumentError before anything changes; so does an aborted signal.
   */
  async setData(data: Uint8Array, options: SignalOptions = {}): Promise<void> {
    checkRequiredData(data, this.#basePath);
    const signal = checkSignalOptions(options);
    if (this.#state === RecipeState.CLOSED)
      throw new ClosedError({ path: this.#basePath, detail: 'PersistentNode closed' });
    return this.#keeper.setData(Buffer.from(data), this.#state === RecipeState.STARTED, signal);
  }

  /**
   * Stops keeping the node and deletes it. Every request of the node stops at once. While the
   * client is connected, close() resolves once the server confirms the delete (one round
   * trip); otherwise (an outage, before the first connection) the delete goes to the client's
   * guaranteed deletes, sent when the connection returns, and close() resolves at once (an
   * ephemeral node also ends with its session). A create that may have reached the server is
   * deleted the same way. With `deleteOnClose: false` nothing is deleted. Twice is a no-op.
   */
  close(): Promise<void> {
    if (this.#closing) return this.#closing;
    const wasStarted = this.#state === RecipeState.STARTED;
    this.#state = RecipeState.CLOSED;
    this.#unsubscribeState?.();
    // Asked before the requests are aborted: the keeper knows which create was still out.
    const kept = wasStarted ? this.#keeper.stop() : undefined;
    const path = this.#deleteOnClose ? kept : undefined;
    this.#closer.abort(new ClosedError({ path: this.#basePath, detail: 'PersistentNode closed' }));
    for (const finish of [...this.#initialWaiters]) finish(false);
    this.#closing = (async () => {
      if (path !== undefined) {
        try {
          await deleteOwnNode(this.#client, path);
        } catch (error) {
          // Not a connection problem (NO_AUTH, say): close() itself still succeeds, so the
          // failure goes where background failures go (the errors stream is still open).
          this.#dispatcher.report(error, `deleting ${path} on close`);
        }
      }
      this.#keeper.rejectWaiters(
        new ClosedError({ path: this.#basePath, detail: 'PersistentNode closed' }),
      );
      this.#dispatcher.close();
    })();
    return this.#closing;
  }

  /** Calls `close()`, so `await using` releases this at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

function protectedPath(path: string): string {
  const slash = path.lastIndexOf('/');
  return `${path.slice(0, slash)}/${protectedNodeName(randomUUID(), path.slice(slash + 1))}`;
}

/** Bytes within ZooKeeper's limit (`MAX_NODE_DATA_BYTES`): checked before anything is sent. */
function checkRequiredData(data: unknown, path: string): void {
  if (data === undefined) {
    throw new InvalidArgumentError('data must be a Buffer or Uint8Array; got undefined', { path });
  }
  validateData(data, { path });
}
