import { BehaviorSubject, Subject } from 'rxjs';
import {
  ClosedError,
  type ConnectionState,
  type FrameworkClient,
  IllegalStateError,
  InvalidArgumentError,
  isBadVersion,
  isClosed,
  isConnectedState,
  isNodeExists,
  isNoNode,
  isOutcomeUnknown,
  isRetryable,
  type Logger,
  type RecipeError,
  RecipeState,
  type Stat,
  validatePath,
  WatchEventType,
  type IterableObservable,
  iterableObservable,
} from '@zkrecipes/framework';
import {
  assertClientStarted,
  checkClient,
  checkListener,
  EventDispatcher,
  RearmableWatch,
  checkRecipeOptions,
  connectionStreamOf,
  prepareIdempotentWrites,
  describeValue,
} from '@zkrecipes/framework/recipe-support';
import { checkBytes, sameBytes } from './bytes.js';
import { checkCallOptions, type CallOptions } from './call-options.js';
import { checkVersionedValue, type VersionedValue } from './versioned-value.js';

/** Curator's `SharedValueListener.valueHasChanged`, given the current value (a copy). */
export type SharedValueListener = (value: Uint8Array) => unknown;

/** Curator's `ConnectionStateListener.stateChanged`, as every SharedValueListener also is. */
export type SharedValueStateListener = (state: ConnectionState) => unknown;

/** What the listeners get, in order. */
type SharedValueEvent =
  | { readonly type: 'valueChanged'; readonly value: Uint8Array }
  | { readonly type: 'stateChanged'; readonly state: ConnectionState };

/** Options of {@link SharedValue}. */
export interface SharedValueOptions {
  /**
   * Names the recipe in its log lines and error messages. Default: 'SharedValue'; a recipe
   * built on a SharedValue passes its own name (SharedCount does).
   */
  readonly component?: string | undefined;
}

/**
 * A value every client of one path shares (Curator's `SharedValue`): a node holding bytes,
 * watched, with a local copy that follows the node's changes, `setValue` to overwrite it and
 * `trySetValue` to compare-and-set it against the copy the caller last saw.
 *
 * Freshness is decided by the node's mzxid, not its version (Curator 5.7's fix of CURATOR-688):
 * the data version wraps after 2^31 - 1 sets and restarts when the node is re-created, the
 * mzxid only grows. A read or write that answers with an older mzxid than the copy's is
 * ignored.
 *
 * Listeners (`valueChanged`) are called after every read that a watch event or a reconnect
 * caused, with the value then cached: after this client's own writes too, and again after a
 * reconnect even when nothing changed (Curator's behaviour since CURATOR-311). They run
 * asynchronously and isolated; a listener that throws is reported on {@link errors}.
 *
 * @example
 * const config = new SharedValue(client, '/app/config/mode', Buffer.from('normal'));
 * await config.start();
 * config.on('valueChanged', (value) => console.log('mode is now', Buffer.from(value).toString()));
 * const seen = config.getVersionedValue();
 * if (!(await config.trySetValue(seen, Buffer.from('maintenance')))) {
 *   // someone changed it first; config.getValue() holds their value now
 * }
 */
export class SharedValue {
  readonly #client: FrameworkClient;
  readonly #path: string;
  readonly #seed: Uint8Array;
  readonly #component: string;
  readonly #logger: Logger;
  readonly #current: BehaviorSubject<VersionedValue<Uint8Array>>;
  #values: IterableObservable<VersionedValue<Uint8Array>> | undefined;
  readonly #dispatcher: EventDispatcher<SharedValueEvent>;
  readonly #closing = new AbortController();
  readonly #watch: RearmableWatch;
  #state: RecipeState = RecipeState.LATENT;
  #reading = false;
  #readAgain = false;
  #unsubscribeState: (() => void) | undefined;

  /**
   * @param path the node holding the value
   * @param seedValue the value the node is created with if it does not exist yet
   */
  constructor(
    client: FrameworkClient,
    path: string,
    seedValue: Uint8Array,
    options: SharedValueOptions = {},
  ) {
    checkRecipeOptions('SharedValue', options, ['component']);
    this.#component = options.component ?? 'SharedValue';
    if (typeof this.#component !== 'string') {
      throw new InvalidArgumentError(
        `component must be a string; got ${describeValue(this.#component)}`,
      );
    }
    checkClient(this.#component, client);
    validatePath(path);
    this.#seed = checkBytes('seedValue', seedValue);
    this.#client = client;
    this.#path = path;
    this.#logger = client.logger.child({ component: this.#component, path });
    this.#current = new BehaviorSubject<VersionedValue<Uint8Array>>({
      zxid: -1n,
      version: -1,
      value: this.#seed,
    });
    this.#dispatcher = new EventDispatcher(
      new Subject<SharedValueEvent>(),
      client,
      `${this.#component} listener`,
    );
    this.#watch = new RearmableWatch((event, current) => {
      // After a new session the RECONNECTED state reads again (and sets a new watch).
      if (current && event.type !== WatchEventType.SESSION_EXPIRED) this.#request();
    });
  }

  /** The node's path. */
  get path(): string {
    return this.#path;
  }

  /** LATENT until start(), STARTED, CLOSED after close(). */
  get state(): RecipeState {
    return this.#state;
  }

  /**
   * The cached value with its zxid and version over time; replays the current one to each new
   * subscriber. Completes on close.
   */
  get values(): IterableObservable<VersionedValue<Uint8Array>> {
    this.#values ??= iterableObservable(this.#current.asObservable());
    return this.#values;
  }

  /** Background failures: a listener that threw, a read that failed for good. */
  get errors(): IterableObservable<RecipeError> {
    return this.#dispatcher.errors;
  }

  /** The cached value (a copy): the seed until the first read. */
  getValue(): Uint8Array {
    return Uint8Array.from(this.#current.value.value);
  }

  /** The cached value with the zxid and version it was read or written with. */
  getVersionedValue(): VersionedValue<Uint8Array> {
    const { zxid, version, value } = this.#current.value;
    return { zxid, version, value: Uint8Array.from(value) };
  }

  /**
   * Adds a listener; returns the function that removes it. `valueChanged` gets the value
   * after each read a watch or a reconnect caused; `stateChanged` gets every connection state
   * change of the client while started (Curator's `SharedValueListener`, a
   * `ConnectionStateListener`).
   */
  on(event: 'valueChanged', listener: SharedValueListener): () => void;
  on(event: 'stateChanged', listener: SharedValueStateListener): () => void;
  on(event: 'valueChanged' | 'stateChanged', listener: (value: never) => unknown): () => void {
    if (event !== 'valueChanged' && event !== 'stateChanged') {
      throw new InvalidArgumentError(
        `unknown event ${describeValue(event)}; use 'valueChanged' or 'stateChanged'`,
      );
    }
    checkListener(listener);
    const call = listener as (value: unknown) => unknown;
    return this.#dispatcher.add((emitted) => {
      if (emitted.type !== event) return undefined;
      return call(emitted.type === 'valueChanged' ? emitted.value : emitted.state);
    });
  }

  /**
   * Creates the node with the seed value unless it exists (and missing parents), reads it and
   * starts watching it (Curator's `start()`). A second call rejects with IllegalStateError, and
   * so does a call on a client not started yet (on a closed one: ClosedError), before anything:
   * the value can be started once the client is.
   * When it rejects (an outage, the signal) the value stays started: it reads again on the
   * next reconnect; close() it if you give up.
   */
  async start(options: CallOptions = {}): Promise<void> {
    const signal = this.#signalFor(checkCallOptions(options));
    if (this.#state !== RecipeState.LATENT) {
      throw new IllegalStateError(`start() on a ${this.#state} ${this.#component}`, {
        path: this.#path,
      });
    }
    // Before the state changes: the value stays startable once the client is.
    assertClientStarted(this.#client, this.#path);
    this.#state = RecipeState.STARTED;
    this.#unsubscribeState = connectionStreamOf(this.#client).onState((state) => {
      if (this.#state !== RecipeState.STARTED) return;
      this.#dispatcher.emit({ type: 'stateChanged', state });
      if (isConnectedState(state)) this.#request();
    });
    try {
      await this.#client.create(this.#path, { data: this.#seed, createParents: true, signal });
    } catch (error) {
      if (!isNodeExists(error) && !isOutcomeUnknown(error, 'NODE_EXISTS')) throw error;
    }
    await this.#read(signal);
    // trySetValue is an idempotent write: its witness is made while nothing waits for it.
    prepareIdempotentWrites(this.#client);
  }

  /**
   * Overwrites the value whatever it is (Curator's `setValue`); the cache takes the new value
   * unless a newer one is already there. Rejects with NoNodeError when the node was deleted.
   */
  async setValue(newValue: Uint8Array, options: CallOptions = {}): Promise<void> {
    const bytes = checkBytes('newValue', newValue);
    const signal = this.#signalFor(checkCallOptions(options));
    this.#checkStarted('setValue');
    const stat = await this.#client.setData(this.#path, bytes, { signal });
    this.#update(stat, bytes);
  }

  /**
   * Compare-and-set (Curator's `trySetValue(previous, newValue)`): writes `newValue` only if
   * `previous` is still what this object has cached (same zxid, same bytes) and the node still
   * has `previous.version`. Resolves false otherwise, without writing (also when a reply was
   * lost: the answer is about this call's own write); after a lost race on the
   * server it first reads the node again, so `getVersionedValue()` then has the winner's value.
   * Throws InvalidArgumentError for a `previous` whose version is -1 (never read from the
   * node, or the version overflowed, ZOOKEEPER-4743: a versioned write cannot be expressed).
   */
  async trySetValue(
    previous: VersionedValue<Uint8Array>,
    newValue: Uint8Array,
    options: CallOptions = {},
  ): Promise<boolean> {
    const expected = checkVersionedValue(previous, (value) => checkBytes('previous.value', value));
    const bytes = checkBytes('newValue', newValue);
    const signal = this.#signalFor(checkCallOptions(options));
    this.#checkStarted('trySetValue');
    const current = this.#current.value;
    if (expected.zxid !== current.zxid || !sameBytes(expected.value, current.value)) return false;
    if (expected.version === -1) {
      throw new InvalidArgumentError(
        'previous.version is -1: the value was never read from the node, or its version overflowed (ZOOKEEPER-4743); a compare-and-set cannot be sent, use setValue',
        { path: this.#path },
      );
    }
    try {
      // idempotent: after a lost reply, true exactly when this write is the one that landed.
      const stat = await this.#client.setData(this.#path, bytes, {
        version: expected.version,
        signal,
        idempotent: true,
      });
      this.#update(stat, bytes);
      return true;
    } catch (error) {
      if (!isBadVersion(error)) throw error;
    }
    await this.#read(signal);
    return false;
  }

  /**
   * Stops watching, removes the listeners, completes the streams and rejects the calls still
   * under way with ClosedError. Leaves the node. Twice is a no-op.
   */
  close(): Promise<void> {
    if (this.#state === RecipeState.CLOSED) return Promise.resolve();
    this.#state = RecipeState.CLOSED;
    this.#unsubscribeState?.();
    this.#closing.abort(
      new ClosedError({ path: this.#path, detail: `the ${this.#component} is closed` }),
    );
    this.#dispatcher.close();
    this.#current.complete();
    return Promise.resolve();
  }

  /** Calls `close()`, so `await using` closes it at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #checkStarted(method: string): void {
    if (this.#state === RecipeState.CLOSED) {
      throw new ClosedError({ path: this.#path, detail: `the ${this.#component} is closed` });
    }
    if (this.#state !== RecipeState.STARTED) {
      throw new IllegalStateError(`${method}() before start()`, { path: this.#path });
    }
  }

  #signalFor(callSignal: AbortSignal | undefined): AbortSignal {
    const closing = this.#closing.signal;
    return callSignal === undefined ? closing : AbortSignal.any([callSignal, closing]);
  }

  /** Takes a value read or written with `stat` unless the cache already has a newer one. */
  #update(stat: Stat, value: Uint8Array): void {
    if (this.#state === RecipeState.CLOSED) return;
    if (stat.mzxid <= this.#current.value.zxid) return;
    this.#current.next({ zxid: stat.mzxid, version: stat.version, value: Uint8Array.from(value) });
  }

  /**
   * Reads the node (with the watch unless one is armed) and updates the cache. A missing node
   * sets an exists watch instead, so its re-creation is noticed, and resolves false.
   */
  async #read(signal: AbortSignal): Promise<boolean> {
    for (;;) {
      const attempt = this.#watch.next();
      try {
        const { data, stat } = await this.#client.getData(this.#path, {
          watch: attempt?.watcher,
          signal,
        });
        attempt?.confirm();
        this.#update(stat, data);
        return true;
      } catch (error) {
        if (!isNoNode(error)) throw error;
      }
      // A failed getData sets no watch; exists does, and it fires on the re-creation.
      const existsAttempt = this.#watch.next();
      const stat = await this.#client.exists(this.#path, { watch: existsAttempt?.watcher, signal });
      existsAttempt?.confirm();
      if (stat === null) return false;
    }
  }

  /** Background reads are serialized; a request during one causes exactly one more. */
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
        try {
          if (await this.#read(this.#closing.signal)) {
            this.#dispatcher.emit({ type: 'valueChanged', value: this.getValue() });
          }
        } catch (error) {
          if (this.#state !== RecipeState.STARTED || isClosed(error)) return;
          // A lost connection reads again on the reconnect.
          if (isRetryable(error)) this.#logger.debug('background read failed', { error });
          else this.#dispatcher.report(error, `read ${this.#path}`);
        }
      } while (this.#readAgain && this.#state === RecipeState.STARTED);
    } finally {
      this.#reading = false;
    }
  }
}
