import { merge, Subject } from 'rxjs';
import {
  ClosedError,
  ConnectionState,
  type FrameworkClient,
  IllegalStateError,
  InvalidArgumentError,
  isClosed,
  iterableObservable,
  type IterableObservable,
  type PersistentWatch,
  type RecipeError,
  RecipeState,
  validatePath,
  type WatchedEvent,
} from '@zkrecipes/framework';
import {
  assertClientStarted,
  booleanOption,
  checkClient,
  checkListener,
  checkRecipeOptions,
  EventDispatcher,
  connectionStreamOf,
  describeValue,
} from '@zkrecipes/framework/recipe-support';

/** Options of {@link PersistentWatcher}. */
export interface PersistentWatcherOptions {
  /**
   * Watch the node and everything below it (`PERSISTENT_RECURSIVE`: created, changed, deleted)
   * instead of the node alone (`PERSISTENT`: its data, its existence and its children list).
   * Curator's `recursive` constructor argument. Default: true.
   */
  readonly recursive?: boolean | undefined;
}

/** A Curator-style listener of the watch's events (Curator's `Watcher`). */
export type PersistentWatcherListener = (event: WatchedEvent) => unknown;

/**
 * Called each time the watch is (again) in place: after start, and after every reconnect or new
 * session (Curator's `getResetListenable()`). Changes made meanwhile were not reported: re-read.
 */
export type PersistentWatcherResetListener = () => unknown;

/**
 * A persistent watch that survives reconnects and new sessions (Curator's
 * `recipes.watch.PersistentWatcher`), on the client's `addWatch`: one server watch, every event
 * until close. ZooKeeper does not replay what changed while the connection was down, so a
 * `reset` is announced each time the watch is back; requests sent after that news see the
 * watch in place.
 *
 * ```ts
 * const watcher = new PersistentWatcher(client, '/config');
 * watcher.on('event', (event) => console.log(event.type, event.path));
 * watcher.on('reset', () => console.log('watch (re)established: re-read what you need'));
 * await watcher.start();
 * await watcher.close();
 * ```
 */
export class PersistentWatcher {
  readonly #client: FrameworkClient;
  readonly #path: string;
  readonly #recursive: boolean;
  readonly #closer = new AbortController();
  readonly #events: EventDispatcher<WatchedEvent>;
  readonly #resets: EventDispatcher<number>;
  #resetCount = 0;
  #state: RecipeState = RecipeState.LATENT;
  #watch: PersistentWatch | undefined;
  #adding: Promise<void> | undefined;
  #unsubscribeState: (() => void) | undefined;

  constructor(client: FrameworkClient, path: string, options: PersistentWatcherOptions = {}) {
    checkClient('PersistentWatcher', client);
    validatePath(path);
    checkRecipeOptions('PersistentWatcher', options, ['recursive']);
    this.#recursive = booleanOption('recursive', options.recursive, true);
    this.#client = client;
    this.#path = path;
    this.#events = new EventDispatcher(new Subject(), client, 'persistent watch listener');
    this.#resets = new EventDispatcher(new Subject(), client, 'reset listener');
  }

  /** The watched path. */
  get path(): string {
    return this.#path;
  }

  /** Whether the watch covers the whole subtree. */
  get recursive(): boolean {
    return this.#recursive;
  }

  /** LATENT until start(), STARTED, CLOSED after close(). */
  get state(): RecipeState {
    return this.#state;
  }

  /** Every event of the watch (paths in the client's namespace), delivered asynchronously. */
  get events(): IterableObservable<WatchedEvent> {
    return this.#events.events;
  }

  /** The number of times the watch has been put in place, each time it is (see `reset`). */
  get resets(): IterableObservable<number> {
    return this.#resets.events;
  }

  /** Listeners that threw, and watch re-adds that failed for another reason than the connection. */
  get errors(): IterableObservable<RecipeError> {
    return iterableObservable(merge(this.#events.errors, this.#resets.errors));
  }

  /** Adds a listener of watch events, or of resets; returns the function that removes it. */
  on(event: 'event', listener: PersistentWatcherListener): () => void;
  on(event: 'reset', listener: PersistentWatcherResetListener): () => void;
  on(event: 'event' | 'reset', listener: (value: never) => unknown): () => void {
    checkListener(listener);
    if (event === 'event') return this.#events.add(listener as PersistentWatcherListener);
    if (event === 'reset') return this.#resets.add(listener as PersistentWatcherResetListener);
    throw new InvalidArgumentError(
      `unknown event ${describeValue(event)}; only 'event' or 'reset'`,
    );
  }

  /**
   * Adds the watch; resolves once the server holds it (after the first `reset`). If that fails
   * (the retry policy gave up, the client is closed) it rejects, and the watcher tries again on
   * the next reconnect until closed. A second start rejects, and so does a start on a client
   * not started yet or closed, before anything (the watcher can be started once it is).
   */
  async start(): Promise<void> {
    if (this.#state !== RecipeState.LATENT) {
      throw new IllegalStateError(`start() on a ${this.#state} PersistentWatcher`, {
        path: this.#path,
      });
    }
    // Before the state changes: the watcher stays startable once the client is.
    assertClientStarted(this.#client, this.#path);
    this.#state = RecipeState.STARTED;
    this.#unsubscribeState = connectionStreamOf(this.#client).onState((state) => {
      if (state !== ConnectionState.CONNECTED && state !== ConnectionState.RECONNECTED) return;
      // The client re-adds held watches before it releases anything sent after this news.
      if (this.#watch !== undefined) this.#reset();
      else this.#ensureWatch().catch((error: unknown) => this.#report(error));
    });
    await this.#ensureWatch();
  }

  /**
   * Stops the events at once and removes the server's watch; resolves once removed, or at once
   * when the connection is down (the watch goes with its connection). Twice is a no-op.
   */
  async close(): Promise<void> {
    if (this.#state === RecipeState.CLOSED) return;
    this.#state = RecipeState.CLOSED;
    this.#unsubscribeState?.();
    // A watch still being added is removed by #addWatch once it is there.
    this.#closer.abort(new ClosedError({ path: this.#path, detail: 'PersistentWatcher closed' }));
    this.#events.close();
    this.#resets.close();
    await this.#watch?.remove();
  }

  /** Calls `close()`, so `await using` releases this at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #ensureWatch(): Promise<void> {
    this.#adding ??= this.#addWatch().finally(() => (this.#adding = undefined));
    return this.#adding;
  }

  async #addWatch(): Promise<void> {
    const watch = await this.#client.addWatch(
      this.#path,
      (event) => {
        if (this.#state === RecipeState.STARTED) this.#events.emit(event);
      },
      {
        mode: this.#recursive ? 'PERSISTENT_RECURSIVE' : 'PERSISTENT',
        signal: this.#closer.signal,
      },
    );
    if (this.#state !== RecipeState.STARTED) {
      await watch.remove();
      return;
    }
    this.#watch = watch;
    this.#reset();
  }

  #reset(): void {
    if (this.#state !== RecipeState.STARTED) return;
    this.#resetCount += 1;
    this.#resets.emit(this.#resetCount);
  }

  #report(error: unknown): void {
    if (this.#state !== RecipeState.STARTED || isClosed(error)) return;
    this.#events.report(error, `adding the persistent watch on ${this.#path}`);
  }
}
