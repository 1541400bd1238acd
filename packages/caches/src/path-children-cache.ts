import { Subject } from 'rxjs';
import {
  ClosedError,
  ConnectionState,
  type FrameworkClient,
  IllegalStateError,
  InvalidArgumentError,
  isClosed,
  type RecipeError,
  RecipeState,
  type SignalOptions,
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
  EventDispatcher,
  positiveIntegerOption,
  connectionStreamOf,
  untilAborted,
  describeValue,
  dataDecompressor,
} from '@zkrecipes/framework/recipe-support';
import { compareChildData, type ChildData } from './child-data.js';
import { CacheTelemetry } from './cache-telemetry.js';
import { ChildrenTracker } from './children-tracker.js';
import type {
  PathChildrenCacheEvent,
  PathChildrenCacheListener,
} from './path-children-cache-event.js';
import { StartMode } from './start-mode.js';

/** Options of {@link PathChildrenCache}. */
export interface PathChildrenCacheOptions {
  /** Keep each child's data, not just its Stat (Curator's `cacheData`). Default: true. */
  readonly cacheData?: boolean | undefined;
  /**
   * Set a data watch on each child, so CHILD_UPDATED comes as soon as a child's data changes
   * and CHILD_REMOVED without waiting for the parent's listing (Curator always does). With
   * false, the cache holds exactly one watch (the parent's children) whatever the number of
   * children; data changes are then seen only after a reconnect, `rebuild()` or
   * `clearAndRefresh()`. Default: true.
   */
  readonly watchData?: boolean | undefined;
  /** Child reads in flight at most (they are pipelined on the one connection). Default: 64. */
  readonly concurrency?: number | undefined;
  /**
   * The children's data is compressed (Curator's `dataIsCompressed`): the cache holds it
   * decompressed with the client's `compressionProvider`. A child whose data cannot be
   * decompressed is reported on `errors` (DataInconsistencyError) and left out until it is read
   * again (the parent's next listing, a reconnect, `rebuild()`); INITIALIZED waits for it, as in
   * Curator. False keeps the bytes as stored. Default: the client's `compressionEnabled`.
   */
  readonly dataIsCompressed?: boolean | undefined;
}

/** The default of {@link PathChildrenCacheOptions.concurrency}. */
export const DEFAULT_CACHE_CONCURRENCY = 64;

/**
 * Keeps a local view of the direct children of one node, with their Stat and (by default)
 * data, and reports the changes (Curator's `PathChildrenCache`).
 *
 * The view is eventually consistent, not an event log: after any change it converges on the
 * server's children, and each event is a difference between two views the cache held. After a
 * reconnect or a new session it re-reads what may have changed and reports exactly the
 * differences. The cache never writes: a missing parent is waited for (and a deleted one
 * followed when it comes back). See docs/recipes/caches.md.
 *
 * ```ts
 * const cache = new PathChildrenCache(client, '/services');
 * cache.on('childEvent', (event) => console.log(event.type));
 * await cache.start(StartMode.BUILD_INITIAL_CACHE);
 * cache.getCurrentData(); // sorted by path
 * await cache.close();
 * ```
 */
export class PathChildrenCache {
  readonly #client: FrameworkClient;
  readonly #path: string;
  readonly #closer = new AbortController();
  readonly #dispatcher: EventDispatcher<PathChildrenCacheEvent>;
  readonly #telemetry: CacheTelemetry;
  readonly #tracker: ChildrenTracker;
  #state: RecipeState = RecipeState.LATENT;
  #unsubscribeState: (() => void) | undefined;

  constructor(client: FrameworkClient, path: string, options: PathChildrenCacheOptions = {}) {
    checkClient('PathChildrenCache', client);
    validatePath(path);
    checkRecipeOptions('PathChildrenCache', options, [
      'cacheData',
      'watchData',
      'concurrency',
      'dataIsCompressed',
    ]);
    const cacheData = booleanOption('cacheData', options.cacheData, true);
    const watchData = booleanOption('watchData', options.watchData, true);
    const concurrency = positiveIntegerOption(
      'concurrency',
      options.concurrency,
      DEFAULT_CACHE_CONCURRENCY,
    );
    this.#client = client;
    this.#path = path;
    const logger = client.logger.child({ component: 'PathChildrenCache', path });
    this.#dispatcher = new EventDispatcher(new Subject(), client, 'childEvent listener');
    this.#telemetry = new CacheTelemetry(client, 'PathChildrenCache', path, () => {
      return this.#tracker.current.size;
    });
    this.#tracker = new ChildrenTracker(client, path, {
      cacheData,
      watchData,
      concurrency,
      decompress: dataDecompressor(client, options.dataIsCompressed, 'dataIsCompressed'),
      signal: this.#closer.signal,
      emit: (event) => {
        this.#telemetry.event(event.type);
        this.#dispatcher.emit(event);
      },
      // A closed client fails what was in flight: expected at shutdown, not worth an error.
      report: (error, context) => {
        if (!isClosed(error)) this.#dispatcher.report(error, context);
      },
      warn: (message, meta) => logger.warn(message, meta),
    });
  }

  /** The parent whose children are cached. */
  get path(): string {
    return this.#path;
  }

  /** LATENT until start(), STARTED, CLOSED after close(). */
  get state(): RecipeState {
    return this.#state;
  }

  /** Every event, in order, delivered asynchronously (after the cache has applied it). */
  get events(): IterableObservable<PathChildrenCacheEvent> {
    return this.#dispatcher.events;
  }

  /** Background failures: a listener that threw, a read that failed after the retry policy. */
  get errors(): IterableObservable<RecipeError> {
    return this.#dispatcher.errors;
  }

  /**
   * Adds a Curator-style listener (`getListenable().addListener`). It runs asynchronously, in
   * event order; a throw or rejection goes to {@link errors}. Returns the function that removes it.
   */
  on(event: 'childEvent', listener: PathChildrenCacheListener): () => void {
    checkEventListener('childEvent', event, listener);
    return this.#dispatcher.add(listener);
  }

  /**
   * Starts caching. NORMAL and POST_INITIALIZED_EVENT resolve at once and load in the
   * background; BUILD_INITIAL_CACHE resolves once every child has been read (without events),
   * and rejects if that load fails (the cache keeps running; close it). A second start rejects,
   * and so does a start on a client not started yet or closed, before anything (the cache can be
   * started once the client is).
   * Aborting `signal` ends the BUILD_INITIAL_CACHE wait at once with `signal.reason`; the cache
   * stays started and its load goes on (close it if you give up).
   */
  async start(mode: StartMode = StartMode.NORMAL, options: SignalOptions = {}): Promise<void> {
    if (!Object.values(StartMode).includes(mode)) {
      throw new InvalidArgumentError(`unknown start mode ${describeValue(mode)}`);
    }
    const signal = checkSignalOptions(options);
    if (this.#state !== RecipeState.LATENT) {
      throw new IllegalStateError(`start() on a ${this.#state} PathChildrenCache`, {
        path: this.#path,
      });
    }
    // Its listing would fail in the background, out of the caller's sight.
    assertClientStarted(this.#client, this.#path);
    this.#state = RecipeState.STARTED;
    this.#unsubscribeState = connectionStreamOf(this.#client).onState((state) =>
      this.#onState(state),
    );
    this.#telemetry.started();
    const loaded = this.#telemetry.loadStarted();
    switch (mode) {
      case StartMode.NORMAL:
        this.#tracker.refresh(false);
        return;
      case StartMode.POST_INITIALIZED_EVENT:
        this.#tracker.load({ silent: false, failFast: false }).then(
          () => {
            loaded();
            this.#emitInitialized();
          },
          () => undefined, // only ClosedError: a closed cache has no one to tell
        );
        return;
      case StartMode.BUILD_INITIAL_CACHE:
        await untilAborted(this.#tracker.load({ silent: true, failFast: true }), signal);
        loaded();
        return;
    }
  }

  /** The cached children, sorted by path. No guarantee of accuracy: the latest view. */
  getCurrentData(): ChildData[];
  /** The cached child at `fullPath`, or undefined. */
  getCurrentData(fullPath: string): ChildData | undefined;
  getCurrentData(fullPath?: string): ChildData[] | ChildData | undefined {
    if (fullPath !== undefined) return this.#tracker.current.get(fullPath);
    return [...this.#tracker.current.values()].sort(compareChildData);
  }

  /**
   * Clears the view and reads every child again, without events; resolves when done. The reads
   * are the cache's own (shared with its background listing), so aborting `signal` ends only
   * this wait, at once and with `signal.reason`: the reads go on and fill the view.
   */
  async rebuild(options: SignalOptions = {}): Promise<void> {
    const signal = this.#startQuery('rebuild', options);
    this.#tracker.clear();
    await untilAborted(this.#tracker.load({ silent: true, failFast: true }), signal);
  }

  /**
   * Reads one child again without events (it is dropped if gone); resolves when done. The read
   * is shared with the cache's own, so aborting `signal` ends only this wait, at once and with
   * `signal.reason`: the read goes on and updates the view.
   */
  async rebuildNode(fullPath: string, options: SignalOptions = {}): Promise<void> {
    validatePath(fullPath);
    const parent = fullPath.slice(0, Math.max(fullPath.lastIndexOf('/'), 1));
    if (parent !== this.#path || fullPath === this.#path) {
      throw new InvalidArgumentError(`${fullPath} is not a child of ${this.#path}`);
    }
    const signal = this.#startQuery('rebuildNode', options);
    await untilAborted(this.#tracker.rebuildNode(fullPath), signal);
  }

  /**
   * Forgets every child, then lists and reads them again: a CHILD_ADDED for each. The reads are
   * shared with the cache's own, so aborting `signal` ends only this wait, at once and with
   * `signal.reason`: the reads go on, and their events come.
   */
  async clearAndRefresh(options: SignalOptions = {}): Promise<void> {
    const signal = this.#startQuery('clearAndRefresh', options);
    this.#tracker.clear();
    await untilAborted(this.#tracker.load({ silent: false, failFast: true }), signal);
  }

  /** Forgets every child without events and without reading again (Curator's `clear`). */
  clear(): void {
    this.#tracker.clear();
  }

  /**
   * Drops a child's cached bytes to save memory, keeping its Stat (Curator's `clearDataBytes`).
   * With `ifVersion` >= 0 only when the cached version matches. True when the child is cached
   * (and matched).
   */
  clearDataBytes(fullPath: string, ifVersion = -1): boolean {
    return this.#tracker.clearData(fullPath, ifVersion);
  }

  /**
   * Stops caching: removes the listeners, completes the streams, silences every watcher (the
   * server-side watches stay until they fire or the session ends: the wire client cannot remove
   * them) and rejects pending rebuilds with ClosedError. Twice is a no-op.
   */
  close(): Promise<void> {
    if (this.#state === RecipeState.CLOSED) return Promise.resolve();
    this.#state = RecipeState.CLOSED;
    this.#unsubscribeState?.();
    this.#closer.abort();
    this.#tracker.close();
    this.#dispatcher.close();
    this.#telemetry.stopped();
    return Promise.resolve();
  }

  /** Calls `close()`, so `await using` releases this at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #onState(state: ConnectionState): void {
    if (this.#state !== RecipeState.STARTED) return;
    switch (state) {
      case ConnectionState.SUSPENDED:
        this.#dispatcher.emit({ type: 'CONNECTION_SUSPENDED' });
        return;
      case ConnectionState.LOST:
        this.#dispatcher.emit({ type: 'CONNECTION_LOST' });
        return;
      case ConnectionState.CONNECTED:
      case ConnectionState.RECONNECTED:
      case ConnectionState.READ_ONLY:
        // The event first: the differences found by the re-read follow it.
        this.#dispatcher.emit({ type: 'CONNECTION_RECONNECTED' });
        this.#tracker.refresh(true);
        return;
    }
  }

  #emitInitialized(): void {
    if (this.#state !== RecipeState.STARTED) return;
    this.#telemetry.event('INITIALIZED');
    this.#dispatcher.emit({ type: 'INITIALIZED', initialData: this.getCurrentData() });
  }

  /**
   * The checks of a rebuild, before anything is read: the options (InvalidArgumentError), the
   * signal (its reason when aborted already), the state. Returns the signal.
   */
  #startQuery(operation: string, options: SignalOptions): AbortSignal | undefined {
    const signal = checkSignalOptions(options);
    this.#assertStarted(operation);
    return signal;
  }

  #assertStarted(operation: string): void {
    if (this.#state === RecipeState.CLOSED) {
      throw new ClosedError({ path: this.#path, detail: 'the cache is closed' });
    }
    if (this.#state !== RecipeState.STARTED) {
      throw new IllegalStateError(`${operation}() before start()`, { path: this.#path });
    }
  }
}
