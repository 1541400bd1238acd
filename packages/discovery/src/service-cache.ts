import { BehaviorSubject } from 'rxjs';
import {
  ClosedError,
  IllegalStateError,
  InvalidArgumentError,
  nodeName,
  type RecipeError,
  RecipeState,
  type IterableObservable,
} from '@zkrecipes/framework';
import {
  assertClientStarted,
  checkEventListener,
  checkRecipeOptions,
  EventDispatcher,
  positiveIntegerOption,
  describeValue,
  onAbort,
} from '@zkrecipes/framework/recipe-support';
import {
  PathChildrenCache,
  StartMode,
  type ChildData,
  type PathChildrenCacheEvent,
} from '@zkrecipes/caches';
import { checkCallOptions, withCallLimits, type CallOptions } from './call-options.js';
import type { ServiceInstance, ServicePayload } from './service-instance.js';
import type { ServiceDiscovery } from './service-discovery.js';

/** Options of {@link ServiceCache}. */
export interface ServiceCacheOptions {
  /** Instance reads in flight at most. Default: 64. */
  readonly concurrency?: number | undefined;
}

/** A Curator-style listener (`ServiceCacheListener.cacheChanged`), given the new instances. */
export type ServiceCacheListener<P extends ServicePayload = ServicePayload> = (
  instances: readonly ServiceInstance<P>[],
) => unknown;

/**
 * The first check of the constructors that take a discovery: `discovery` is a ServiceDiscovery
 * (by its shape, as checkClient checks a client), else InvalidArgumentError naming `recipe`.
 */
export function checkDiscovery(recipe: string, discovery: unknown): void {
  const candidate = discovery as {
    pathForName?: unknown;
    serializer?: { deserialize?: unknown };
    client?: unknown;
  } | null;
  if (
    typeof candidate?.pathForName !== 'function' ||
    typeof candidate.serializer?.deserialize !== 'function' ||
    typeof candidate.client !== 'object'
  ) {
    throw new InvalidArgumentError(
      `${recipe} needs a ServiceDiscovery; got ${describeValue(discovery)}`,
    );
  }
}

/**
 * The instances of one service, kept current (Curator's `ServiceCache`): a PathChildrenCache
 * on `<basePath>/<name>` whose children are read as instances. The view is eventually
 * consistent: after a change on the server it converges, and two quick changes may arrive as
 * one. Nodes that do not hold an instance are left out and reported on {@link errors}.
 *
 * While the connection is SUSPENDED the view may be stale (it is kept, not cleared); after a
 * reconnect or a new session it is read again. The cache never writes: a service path that
 * does not exist yet is an empty service until it does.
 */
export class ServiceCache<P extends ServicePayload = ServicePayload> {
  readonly #discovery: ServiceDiscovery<P>;
  readonly #cache: PathChildrenCache;
  readonly #instances = new Map<string, ServiceInstance<P>>();
  readonly #dispatcher: EventDispatcher<readonly ServiceInstance<P>[]>;
  readonly #subject = new BehaviorSubject<readonly ServiceInstance<P>[]>([]);
  readonly #closer = new AbortController();
  readonly #closed: Promise<void>;
  #markClosed!: () => void;
  #initialized = false;
  #initializedWaiters = new Set<() => void>();
  #state: RecipeState = RecipeState.LATENT;

  /** Usually made by `discovery.serviceCache(name)`, which also closes it. */
  constructor(discovery: ServiceDiscovery<P>, name: string, options: ServiceCacheOptions = {}) {
    checkDiscovery('ServiceCache', discovery);
    const path = discovery.pathForName(name);
    checkRecipeOptions('ServiceCache', options, ['concurrency']);
    const concurrency = positiveIntegerOption('concurrency', options.concurrency, 64);
    this.#discovery = discovery;
    this.#cache = new PathChildrenCache(discovery.client, path, { concurrency });
    this.#dispatcher = new EventDispatcher(
      this.#subject,
      discovery.client,
      'cacheChanged listener',
    );
    this.#cache.events.subscribe((event) => this.#onEvent(event));
    // The cache reported each to the client already: only this recipe's stream gets it again.
    this.#cache.errors.subscribe(({ error, context }) => this.#dispatcher.forward(error, context));
    this.#closed = new Promise((resolve) => (this.#markClosed = resolve));
  }

  /** LATENT until start(), STARTED, CLOSED after close(). */
  get state(): RecipeState {
    return this.#state;
  }

  /** The instances, sorted by node name; empty until the first load. Replays the current view. */
  get instances(): IterableObservable<readonly ServiceInstance<P>[]> {
    return this.#dispatcher.events;
  }

  /** Background failures: unreadable instance nodes, failed reads, throwing listeners. */
  get errors(): IterableObservable<RecipeError> {
    return this.#dispatcher.errors;
  }

  /** Resolves once closed (for whoever made this). */
  get closed(): Promise<void> {
    return this.#closed;
  }

  /** The current instances, sorted by node name (Curator's `getInstances()`). */
  getInstances(): ServiceInstance<P>[] {
    return this.#sorted();
  }

  /** Curator's `addListener`: called after each change once loaded; returns the remover. */
  on(event: 'cacheChanged', listener: ServiceCacheListener<P>): () => void {
    checkEventListener('cacheChanged', event, listener);
    return this.#dispatcher.add(listener);
  }

  /**
   * Starts the cache and resolves once every instance there was has been read. A timeout or
   * abort rejects (the cache keeps loading; close it), as does close(). A second start rejects,
   * and so does a start on a client not started yet or closed, before anything (the cache can be
   * started once the client is).
   */
  async start(options?: CallOptions): Promise<void> {
    const limits = checkCallOptions(options);
    if (this.#state !== RecipeState.LATENT) {
      throw new IllegalStateError(`start() on a ${this.#state} ServiceCache`);
    }
    limits.signal?.throwIfAborted(); // before anything is sent, and still LATENT
    // Still LATENT too: the cache stays startable once the client is.
    assertClientStarted(this.#discovery.client, this.#cache.path);
    this.#state = RecipeState.STARTED;
    await this.#cache.start(StartMode.POST_INITIALIZED_EVENT);
    await withCallLimits(limits, this.#closer.signal, 'ServiceCache.start', (signal) =>
      this.#initialized
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const done = (): void => {
              stopListening();
              this.#initializedWaiters.delete(done);
              resolve();
            };
            const stopListening = onAbort(signal, () => {
              this.#initializedWaiters.delete(done);
              reject(signal.reason as Error);
            });
            this.#initializedWaiters.add(done);
          }),
    );
  }

  /** Stops the cache, its listeners and streams. Twice is a no-op. */
  async close(): Promise<void> {
    if (this.#state === RecipeState.CLOSED) return this.#closed;
    this.#state = RecipeState.CLOSED;
    this.#closer.abort(new ClosedError({ detail: 'ServiceCache closed' }));
    await this.#cache.close();
    this.#dispatcher.close();
    this.#markClosed();
  }

  /** Calls `close()`, so `await using` releases this at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #onEvent(event: PathChildrenCacheEvent): void {
    switch (event.type) {
      case 'CHILD_ADDED':
      case 'CHILD_UPDATED':
        this.#put(event.data);
        break;
      case 'CHILD_REMOVED':
        this.#instances.delete(nodeName(event.data.path));
        break;
      case 'INITIALIZED':
        this.#initialized = true;
        this.#dispatcher.emitToStream(this.#sorted());
        for (const done of [...this.#initializedWaiters]) done();
        return;
      default:
        return;
    }
    if (this.#initialized) this.#dispatcher.emit(this.#sorted());
  }

  #put(child: ChildData): void {
    const id = nodeName(child.path);
    try {
      if (child.data === undefined) throw new TypeError('no data');
      this.#instances.set(id, this.#discovery.serializer.deserialize(child.data));
    } catch (error) {
      this.#instances.delete(id);
      this.#dispatcher.report(error, `reading the instance at ${child.path}`);
    }
  }

  #sorted(): ServiceInstance<P>[] {
    return [...this.#instances.keys()].sort().map((id) => this.#instances.get(id)!);
  }
}
