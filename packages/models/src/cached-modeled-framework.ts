import { filter, firstValueFrom, merge, Subject } from 'rxjs';
import {
  ClosedError,
  iterableObservable,
  NoNodeError,
  parentOf,
  nodeName,
  type IterableObservable,
  type RecipeError,
  type RecipeState,
  type SignalOptions,
  type Stat,
} from '@zkrecipes/framework';
import {
  checkRecipeOptions,
  checkSignalOptions,
  EventDispatcher,
  untilAborted,
} from '@zkrecipes/framework/recipe-support';
import { CuratorCache, type CuratorCacheEvent } from '@zkrecipes/caches';
import type { ModelDataError } from './model-data-error.js';
import type { ModeledFramework, ModelNode } from './modeled-framework.js';
import type { InferOutput, StandardSchemaV1 } from './standard-schema.js';
import type { PathParams } from './zpath.js';

/** A change of one model node in a {@link CachedModeledFramework} (Curator's `ModeledCacheListener`). */
export type ModelCacheEvent<T, P extends string> =
  | {
      /** A node entered the cache (`NODE_ADDED`) or its data changed (`NODE_UPDATED`). */
      readonly type: 'NODE_ADDED' | 'NODE_UPDATED';
      /** The node's parameters. */
      readonly params: PathParams<P>;
      /** The node as read. */
      readonly node: ModelNode<T>;
    }
  | {
      /** A node left the cache. */
      readonly type: 'NODE_REMOVED';
      /** The node's parameters. */
      readonly params: PathParams<P>;
      /** The node's path. */
      readonly path: string;
      /** The node's last Stat. */
      readonly stat: Stat;
    }
  | {
      /** A node was added or changed with data the model cannot read; the cache goes on. */
      readonly type: 'INVALID';
      /** The node's parameters. */
      readonly params: PathParams<P>;
      /** Why, with the node's path, bytes and the schema's issues. */
      readonly error: ModelDataError;
    }
  | {
      /** The first full read is done (Curator's `initialized()`); once. */
      readonly type: 'INITIALIZED';
    };

/**
 * A model whose reads are local (Curator's `CachedModeledFramework`): a CuratorCache of the
 * template's literal prefix (`/app/users` for `/app/users/{id}`) keeps every model node, and
 * follows every client's changes. Reads wait for the first full read, then answer from memory;
 * writes go through {@link model}, to the server, and show in the cache once it sees them.
 *
 * ```ts
 * await using cached = new CachedModeledFramework(users);
 * await cached.start();
 * const { value } = await cached.read({ id: '42' });
 * ```
 */
export class CachedModeledFramework<S extends StandardSchemaV1, P extends string = string> {
  readonly #model: ModeledFramework<S, P>;
  readonly #cache: CuratorCache;
  readonly #dispatcher: EventDispatcher<ModelCacheEvent<InferOutput<S>, P>>;
  readonly #closed = new AbortController();
  #queue = Promise.resolve();

  constructor(model: ModeledFramework<S, P>, options: Record<string, never> = {}) {
    checkRecipeOptions('CachedModeledFramework', options, []);
    this.#model = model;
    this.#cache = new CuratorCache(model.client, model.path.literalPrefix);
    this.#dispatcher = new EventDispatcher(
      new Subject(),
      model.client,
      'CachedModeledFramework listener',
    );
    this.#cache.on('event', (event) => this.#onEvent(event));
  }

  /** The model: its writes go to the server (the cache follows them). */
  get model(): ModeledFramework<S, P> {
    return this.#model;
  }

  /** LATENT until start(), STARTED, CLOSED after close(). */
  get state(): RecipeState {
    return this.#cache.state;
  }

  /** Changes of model nodes, decoded, in the order the cache applied them. */
  get events(): IterableObservable<ModelCacheEvent<InferOutput<S>, P>> {
    return this.#dispatcher.events;
  }

  /** Background failures: the cache's reads, a listener that threw. */
  get errors(): IterableObservable<RecipeError> {
    return iterableObservable(merge(this.#cache.errors, this.#dispatcher.errors));
  }

  /** Starts the cache in the background (a start on a client not started yet rejects). */
  start(): Promise<void> {
    return this.#cache.start();
  }

  /**
   * The node from the cache, checked by the schema; NoNodeError when the cache has no such
   * node. Waits for the cache's first full read (then answers from memory): aborting `signal`
   * ends that wait with its reason, close() with a ClosedError.
   */
  async read(
    params: PathParams<P>,
    options: SignalOptions = {},
  ): Promise<ModelNode<InferOutput<S>>> {
    const signal = checkSignalOptions(options);
    const path = this.#model.resolve(params);
    await this.#initialized(signal);
    const node = this.#cache.get(path);
    if (node === undefined) throw new NoNodeError({ path });
    const value = await this.#model.codec.decode(node.data ?? new Uint8Array(), path);
    return { path, value, stat: node.stat };
  }

  /** The names of the node's children in the cache, sorted; NoNodeError when it has no such node. */
  async children(params: PathParams<P>, options: SignalOptions = {}): Promise<string[]> {
    const signal = checkSignalOptions(options);
    const path = this.#model.resolve(params);
    await this.#initialized(signal);
    if (this.#cache.get(path) === undefined) throw new NoNodeError({ path });
    const names: string[] = [];
    for (const [child] of this.#cache.entries()) {
      if (child !== path && parentOf(child) === path) names.push(nodeName(child));
    }
    return names.sort();
  }

  /** Stops the cache and completes the events. Twice is a no-op. */
  async close(): Promise<void> {
    this.#closed.abort(new ClosedError({ path: this.#cache.path, detail: 'the cache is closed' }));
    await this.#cache.close();
    // Events already being decoded are delivered before the stream completes.
    await this.#queue;
    this.#dispatcher.close();
  }

  /** Calls `close()`, so `await using` closes the cache at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #initialized(signal: AbortSignal | undefined): Promise<void> {
    this.#closed.signal.throwIfAborted();
    if (this.#cache.isInitialized) return;
    const ready = firstValueFrom(this.#cache.initialized.pipe(filter(Boolean)));
    const closedOrAborted =
      signal === undefined ? this.#closed.signal : AbortSignal.any([signal, this.#closed.signal]);
    await untilAborted(ready, closedOrAborted);
  }

  #onEvent(event: CuratorCacheEvent): void {
    type Event = ModelCacheEvent<InferOutput<S>, P>;
    // Decoding may be asynchronous (a schema's validate): one at a time keeps the order.
    this.#queue = this.#queue.then(async () => {
      if (event.type === 'INITIALIZED') return this.#dispatcher.emit({ type: 'INITIALIZED' });
      const path = (event.data ?? event.oldData).path;
      const params = this.#model.path.match(path);
      if (params === undefined) return;
      if (event.type === 'NODE_DELETED') {
        return this.#dispatcher.emit({
          type: 'NODE_REMOVED',
          params,
          path,
          stat: event.oldData.stat,
        });
      }
      let next: Event;
      try {
        const value = await this.#model.codec.decode(event.data.data ?? new Uint8Array(), path);
        const type = event.type === 'NODE_CREATED' ? 'NODE_ADDED' : 'NODE_UPDATED';
        next = { type, params, node: { path, value, stat: event.data.stat } };
      } catch (error) {
        next = { type: 'INVALID', params, error: error as ModelDataError };
      }
      this.#dispatcher.emit(next);
    });
  }
}
