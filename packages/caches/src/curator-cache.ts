import { setMaxListeners } from 'node:events';
import { BehaviorSubject, merge, Subject } from 'rxjs';
import {
  ClosedError,
  type FrameworkClient,
  IllegalStateError,
  isClosed,
  type RecipeError,
  iterableObservable,
  RecipeState,
  validatePath,
  type IterableObservable,
} from '@zkrecipes/framework';
import {
  assertClientStarted,
  booleanOption,
  checkClient,
  checkEventListener,
  checkRecipeOptions,
  EventDispatcher,
  positiveIntegerOption,
} from '@zkrecipes/framework/recipe-support';
import { CacheTelemetry } from './cache-telemetry.js';
import { CacheTree } from './cache-tree.js';
import { compareChildData, type ChildData } from './child-data.js';
import type { CuratorCacheEvent, CuratorCacheListener } from './curator-cache-event.js';
import { DEFAULT_CACHE_CONCURRENCY } from './path-children-cache.js';
import { PersistentWatcher } from './persistent-watcher.js';

/** Options of {@link CuratorCache}: Curator's `CuratorCache.Options` and storage choice. */
export interface CuratorCacheOptions {
  /** Cache the root node alone, not its subtree (Curator's `SINGLE_NODE_CACHE`). Default: false. */
  readonly singleNode?: boolean | undefined;
  /**
   * Keep each node's bytes in the storage. With false only the Stat is kept (Curator's
   * `CuratorCacheStorage.dataNotCached()`); events still carry the bytes just read as `data`.
   * Default: true.
   */
  readonly cacheData?: boolean | undefined;
  /**
   * Empty the storage on close. False keeps the last view readable after close (Curator's
   * `DO_NOT_CLEAR_ON_CLOSE`). Default: true.
   */
  readonly clearOnClose?: boolean | undefined;
  /** Reads and listings in flight at most (concurrent reads share multiRead requests). Default: 64. */
  readonly concurrency?: number | undefined;
  /**
   * The data is compressed (Curator's `COMPRESSED_DATA`): the cache holds it decompressed with
   * the client's `compressionProvider`. A node whose data cannot be decompressed is left out and
   * reported on `errors` (DataInconsistencyError). False keeps the bytes as stored. Default: the
   * client's `compressionEnabled`.
   */
  readonly compressedData?: boolean | undefined;
}

/**
 * A local copy of a whole subtree (or one node) kept by one persistent recursive watch
 * (Curator 5's `CuratorCache`): NODE_CREATED, NODE_CHANGED, NODE_DELETED for each difference
 * it applies, and INITIALIZED once after the first full read. The root itself is cached like
 * any node. It never writes: a missing root is waited for.
 *
 * The view is eventually consistent, not an event log: a create quickly followed by a change
 * may show as one NODE_CREATED with the newer data. After a reconnect or a new session the tree
 * is read again and exactly the differences are reported. See docs/recipes/caches.md.
 *
 * ```ts
 * const cache = new CuratorCache(client, '/config');
 * cache.on('event', (event) => console.log(event.type));
 * await cache.start();
 * cache.get('/config/db')?.data;
 * await cache.close();
 * ```
 */
export class CuratorCache {
  readonly #client: FrameworkClient;
  readonly #path: string;
  readonly #clearOnClose: boolean;
  readonly #closer = new AbortController();
  readonly #watcher: PersistentWatcher;
  readonly #tree: CacheTree;
  readonly #dispatcher: EventDispatcher<CuratorCacheEvent>;
  readonly #telemetry: CacheTelemetry;
  #loaded: (() => void) | undefined;
  readonly #initialized = new BehaviorSubject(false);
  #state: RecipeState = RecipeState.LATENT;

  constructor(client: FrameworkClient, path: string, options: CuratorCacheOptions = {}) {
    checkClient('CuratorCache', client);
    validatePath(path);
    checkRecipeOptions('CuratorCache', options, [
      'singleNode',
      'cacheData',
      'clearOnClose',
      'concurrency',
      'compressedData',
    ]);
    const recursive = !booleanOption('singleNode', options.singleNode, false);
    const cacheData = booleanOption('cacheData', options.cacheData, true);
    this.#clearOnClose = booleanOption('clearOnClose', options.clearOnClose, true);
    const concurrency = positiveIntegerOption(
      'concurrency',
      options.concurrency,
      DEFAULT_CACHE_CONCURRENCY,
    );
    this.#client = client;
    this.#path = path;
    // Every request in flight listens to it: up to twice `concurrency`.
    setMaxListeners(0, this.#closer.signal);
    this.#dispatcher = new EventDispatcher(new Subject(), client, 'CuratorCache listener');
    this.#telemetry = new CacheTelemetry(client, 'CuratorCache', path, () => this.size);
    this.#watcher = new PersistentWatcher(client, path, { recursive });
    this.#tree = new CacheTree(client, path, {
      recursive,
      cacheData,
      compressed: booleanOption(
        'compressedData',
        options.compressedData,
        client.compressionEnabled,
      ),
      concurrency,
      signal: this.#closer.signal,
      emit: (event) => {
        this.#telemetry.event(event.type);
        this.#dispatcher.emit(event);
      },
      report: (error, context) => this.#report(error, context),
    });
  }

  /** The cached root. */
  get path(): string {
    return this.#path;
  }

  /** LATENT until start(), STARTED, CLOSED after close(). */
  get state(): RecipeState {
    return this.#state;
  }

  /** Every event, in the order applied, delivered asynchronously. */
  get events(): IterableObservable<CuratorCacheEvent> {
    return this.#dispatcher.events;
  }

  /** False until the first full read of the tree is done, then true (replays to late subscribers). */
  get initialized(): IterableObservable<boolean> {
    return iterableObservable(this.#initialized.asObservable());
  }

  /** Whether the first full read of the tree is done. */
  get isInitialized(): boolean {
    return this.#initialized.value;
  }

  /** Background failures: a listener that threw, a read that failed after the retry policy. */
  get errors(): IterableObservable<RecipeError> {
    return iterableObservable(merge(this.#dispatcher.errors, this.#watcher.errors));
  }

  /**
   * Adds a Curator-style listener (`listenable().addListener`); build a filtered one with
   * `curatorCacheListener`. It runs asynchronously, in event order. Returns its remover.
   */
  on(event: 'event', listener: CuratorCacheListener): () => void {
    checkEventListener('event', event, listener);
    return this.#dispatcher.add(listener);
  }

  /** The cached node at `path` (the root or below), or undefined. */
  get(path: string): ChildData | undefined {
    return this.#tree.storage.get(path);
  }

  /** The number of cached nodes, the root included. */
  get size(): number {
    return this.#tree.storage.size;
  }

  /** A snapshot of every cached node, sorted by path (Curator's `stream()`). */
  stream(): ChildData[] {
    return [...this.#tree.storage.values()].sort(compareChildData);
  }

  /** The cached nodes as [path, node], live and unordered (the storage's own iterator). */
  entries(): IterableIterator<[string, ChildData]> {
    return this.#tree.storage.entries();
  }

  /**
   * Starts caching in the background, as Curator's `start()`: adds the watch, then reads the
   * tree (a NODE_CREATED for each node, then INITIALIZED). Resolves at once; failures go to
   * {@link errors} and are retried on the next reconnect. A second start rejects, and so does a
   * start on a client not started yet or closed (the cache can be started once the client is).
   */
  start(): Promise<void> {
    if (this.#state !== RecipeState.LATENT) {
      return Promise.reject(
        new IllegalStateError(`start() on a ${this.#state} CuratorCache`, { path: this.#path }),
      );
    }
    try {
      // Its watch would fail in the background, out of the caller's sight.
      assertClientStarted(this.#client, this.#path);
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on unchanged (a ZooKeeperError)
      return Promise.reject(error);
    }
    this.#state = RecipeState.STARTED;
    this.#telemetry.started();
    this.#loaded = this.#telemetry.loadStarted();
    this.#watcher.on('event', (event) => this.#tree.onEvent(event));
    // After start and after every reconnect or new session: read the tree again.
    this.#watcher.on('reset', () => this.#sync());
    this.#watcher.start().catch((error: unknown) => this.#report(error, 'adding the watch'));
    return Promise.resolve();
  }

  /**
   * Stops caching: removes the watch and the listeners, completes the streams, and empties the
   * storage unless `clearOnClose` is false. Prompt in any connection state. Twice is a no-op.
   */
  async close(): Promise<void> {
    if (this.#state === RecipeState.CLOSED) return;
    this.#state = RecipeState.CLOSED;
    this.#closer.abort(new ClosedError({ path: this.#path, detail: 'the cache is closed' }));
    this.#tree.close(this.#clearOnClose);
    this.#dispatcher.close();
    this.#telemetry.stopped();
    this.#initialized.complete();
    await this.#watcher.close();
  }

  /** Calls `close()`, so `await using` releases this at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #sync(): void {
    void this.#tree.sync().then((complete) => {
      if (!complete || this.#state !== RecipeState.STARTED || this.#initialized.value) return;
      this.#initialized.next(true);
      this.#loaded?.();
      this.#telemetry.event('INITIALIZED');
      this.#dispatcher.emit({ type: 'INITIALIZED' });
    });
  }

  #report(error: unknown, context: string): void {
    // A closed client or cache fails what was in flight: expected at shutdown.
    if (this.#state === RecipeState.CLOSED || isClosed(error)) return;
    this.#dispatcher.report(error, context);
  }
}
