import { BehaviorSubject } from 'rxjs';
import {
  ClosedError,
  ConnectionState,
  type FrameworkClient,
  IllegalStateError,
  isClosed,
  isNoNode,
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
  checkOptionsObject,
  checkRecipeOptions,
  EventDispatcher,
  connectionStreamOf,
  signalOption,
  untilAborted,
  dataDecompressor,
} from '@zkrecipes/framework/recipe-support';
import type { ChildData } from './child-data.js';
import { CacheTelemetry } from './cache-telemetry.js';
import { WatchHub } from './watch-hub.js';

/** Options of {@link NodeCache}. */
export interface NodeCacheOptions {
  /**
   * The node's data is compressed (Curator's `dataIsCompressed`): the cache holds it
   * decompressed with the client's `compressionProvider`; data that cannot be decompressed is
   * reported on `errors` (DataInconsistencyError) and the view keeps its previous value. False
   * keeps the bytes as stored. Default: the client's `compressionEnabled`.
   */
  readonly dataIsCompressed?: boolean | undefined;
}

/** Options of {@link NodeCache.start}. */
export interface NodeCacheStartOptions {
  /**
   * Read the node before `start()` resolves, without a change event for that first value
   * (Curator's `start(true)`). Default: false (read in the background; the first value found
   * is a change from "no data").
   */
  readonly buildInitial?: boolean | undefined;
  /**
   * Aborting ends the `buildInitial` wait at once with `signal.reason`; the cache stays started
   * and its read goes on (close it if you give up). Default: none.
   */
  readonly signal?: AbortSignal | undefined;
}

/** A Curator-style listener (`NodeCacheListener.nodeChanged`), given the new value. */
export type NodeCacheListener = (data: ChildData | undefined) => unknown;

/**
 * Keeps a local copy of one node's data and Stat (Curator's `NodeCache`) and reports each
 * change: created, data changed, deleted. It follows the node through deletion and
 * re-creation and across reconnects and new sessions; the view is eventually consistent (two
 * quick changes may show as one).
 *
 * One watch at a time: a data watch from getData while the node exists, an exists watch while
 * it does not (that one is the point: it reports the creation). Watches go through the
 * client's WatchHub, so no path collects duplicate watchers (see watch-hub.ts).
 */
export class NodeCache {
  readonly #client: FrameworkClient;
  readonly #path: string;
  readonly #hub: WatchHub;
  readonly #subject = new BehaviorSubject<ChildData | undefined>(undefined);
  readonly #dispatcher: EventDispatcher<ChildData | undefined>;
  readonly #telemetry: CacheTelemetry;
  #state: RecipeState = RecipeState.LATENT;
  #current: ChildData | undefined;
  #reading = false;
  #readAgain = false;
  /** Set while `buildInitial`/`rebuild` reads: apply without an event. */
  #silentWaiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  /** The silent waiters the read under way answers: close() must still reach them. */
  #answering: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  #unsubscribeState: (() => void) | undefined;
  #unsubscribeWatch: (() => void) | undefined;
  readonly #decompress: ((path: string, data: Buffer) => Buffer) | undefined;

  constructor(client: FrameworkClient, path: string, options: NodeCacheOptions = {}) {
    checkClient('NodeCache', client);
    validatePath(path);
    checkRecipeOptions('NodeCache', options, ['dataIsCompressed']);
    this.#decompress = dataDecompressor(client, options.dataIsCompressed, 'dataIsCompressed');
    this.#client = client;
    this.#path = path;
    this.#hub = WatchHub.of(client);
    this.#dispatcher = new EventDispatcher(this.#subject, client, 'nodeChanged listener');
    this.#telemetry = new CacheTelemetry(client, 'NodeCache', path, () =>
      this.#current === undefined ? 0 : 1,
    );
  }

  /** The cached node's path. */
  get path(): string {
    return this.#path;
  }

  /** LATENT until start(), STARTED, CLOSED after close(). */
  get state(): RecipeState {
    return this.#state;
  }

  /**
   * The node's value over time: its ChildData, or undefined while it does not exist. Replays
   * the latest delivered value to each new subscriber (a BehaviorSubject).
   */
  get changes(): IterableObservable<ChildData | undefined> {
    return this.#dispatcher.events;
  }

  /** Background failures: a listener that threw, a read that failed after the retry policy. */
  get errors(): IterableObservable<RecipeError> {
    return this.#dispatcher.errors;
  }

  /** Adds a listener for each change; returns the function that removes it. */
  on(event: 'nodeChanged', listener: NodeCacheListener): () => void {
    checkEventListener('nodeChanged', event, listener);
    return this.#dispatcher.add(listener);
  }

  /** The current view: undefined when the node does not exist (or is not read yet). */
  getCurrentData(): ChildData | undefined {
    return this.#current;
  }

  /**
   * Starts watching the node; see {@link NodeCacheStartOptions}. A second start rejects, and so
   * does a start on a client not started yet or closed (the cache can be started once it is).
   */
  async start(options: NodeCacheStartOptions = {}): Promise<void> {
    checkOptionsObject(options);
    checkRecipeOptions('NodeCache.start', options, ['buildInitial', 'signal']);
    const buildInitial = booleanOption('buildInitial', options.buildInitial, false);
    const signal = signalOption(options.signal);
    signal?.throwIfAborted();
    if (this.#state !== RecipeState.LATENT) {
      throw new IllegalStateError(`start() on a ${this.#state} NodeCache`, { path: this.#path });
    }
    // Its reads would fail in the background, out of the caller's sight.
    assertClientStarted(this.#client, this.#path);
    this.#state = RecipeState.STARTED;
    this.#unsubscribeWatch = this.#hub.subscribe('node', this.#path, (event) => {
      // After a new session the RECONNECTED listener reads again.
      if (event.type !== 'SESSION_EXPIRED') this.#request();
    });
    this.#unsubscribeState = connectionStreamOf(this.#client).onState((state) => {
      if (state === ConnectionState.CONNECTED || state === ConnectionState.RECONNECTED) {
        this.#request();
      }
    });
    this.#telemetry.started();
    if (buildInitial) {
      const loaded = this.#telemetry.loadStarted();
      await untilAborted(this.#silentRead(), signal);
      loaded();
    } else this.#request();
  }

  /**
   * Reads the node again and applies it without a change event; resolves when done. The read is
   * the cache's own (reads are serialized and shared with the watch's), so aborting `signal`
   * ends only this wait, at once and with `signal.reason`: the read goes on and still applies
   * its value without an event.
   */
  async rebuild(options: SignalOptions = {}): Promise<void> {
    const signal = checkSignalOptions(options);
    if (this.#state === RecipeState.CLOSED) {
      throw new ClosedError({ path: this.#path, detail: 'the cache is closed' });
    }
    if (this.#state !== RecipeState.STARTED) {
      throw new IllegalStateError('rebuild() before start()', { path: this.#path });
    }
    await untilAborted(this.#silentRead(), signal);
  }

  /** Stops watching, removes the listeners and completes the streams. Twice is a no-op. */
  close(): Promise<void> {
    if (this.#state === RecipeState.CLOSED) return Promise.resolve();
    this.#state = RecipeState.CLOSED;
    this.#unsubscribeState?.();
    this.#unsubscribeWatch?.();
    const closed = new ClosedError({ path: this.#path, detail: 'the cache is closed' });
    for (const waiter of [...this.#silentWaiters.splice(0), ...this.#answering.splice(0)]) {
      waiter.reject(closed);
    }
    this.#dispatcher.close();
    this.#telemetry.stopped();
    return Promise.resolve();
  }

  /** Calls `close()`, so `await using` releases this at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #silentRead(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#silentWaiters.push({ resolve, reject });
      this.#request();
    });
  }

  /** Reads are serialized; a request during one causes exactly one more. */
  #request(): void {
    if (this.#state !== RecipeState.STARTED) return;
    if (this.#reading) {
      this.#readAgain = true;
      return;
    }
    this.#reading = true;
    void this.#readLoop();
  }

  async #readLoop(): Promise<void> {
    try {
      do {
        this.#readAgain = false;
        const waiters = this.#silentWaiters.splice(0);
        this.#answering = waiters;
        try {
          const found = await this.#readOnce();
          if (this.#state !== RecipeState.STARTED) return;
          if (found === 'again') {
            this.#silentWaiters.unshift(...waiters);
            this.#readAgain = true;
            continue;
          }
          this.#apply(found, waiters.length > 0);
          for (const waiter of waiters) waiter.resolve();
        } catch (error) {
          if (this.#state !== RecipeState.STARTED) return;
          for (const waiter of waiters) waiter.reject(error);
          // Retried on the next reconnect (or the next watch event).
          if (!isClosed(error)) this.#dispatcher.report(error, `read ${this.#path}`);
        }
      } while (this.#readAgain && this.#state === RecipeState.STARTED);
    } finally {
      this.#answering = [];
      this.#reading = false;
    }
  }

  /** getData first (one round trip when the node exists); exists only when it does not. */
  async #readOnce(): Promise<ChildData | undefined | 'again'> {
    const watch = this.#hub.arm('node', this.#path);
    try {
      const read = await this.#client.getData(this.#path, {
        watch: watch?.watcher,
        compressed: false,
      });
      if (watch !== undefined) this.#hub.confirm(watch.token);
      const { stat } = read;
      const data = this.#decompress?.(this.#path, read.data) ?? read.data;
      return { path: this.#path, stat, data };
    } catch (error) {
      if (!isNoNode(error)) throw error;
    }
    // A failed getData sets no watch; exists does, and it fires on the creation.
    const existsWatch = this.#hub.arm('node', this.#path);
    const stat = await this.#client.exists(this.#path, { watch: existsWatch?.watcher });
    if (existsWatch !== undefined) this.#hub.confirm(existsWatch.token);
    return stat === null ? undefined : 'again';
  }

  #apply(next: ChildData | undefined, silent: boolean): void {
    const previous = this.#current;
    // mzxid moves on every create and every data change, so it tells any two values apart.
    if (previous?.stat.mzxid === next?.stat.mzxid) return;
    if (previous !== undefined && next !== undefined && next.stat.mzxid < previous.stat.mzxid) {
      return;
    }
    this.#current = next;
    this.#telemetry.event('NODE_CHANGED');
    if (silent) this.#dispatcher.emitToStream(next);
    else this.#dispatcher.emit(next);
  }
}
