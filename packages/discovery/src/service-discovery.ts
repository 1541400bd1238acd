import { Subject } from 'rxjs';
import {
  ClosedError,
  type FrameworkClient,
  IllegalStateError,
  InvalidArgumentError,
  isClosed,
  joinPath,
  type Logger,
  type RecipeError,
  RecipeState,
  validatePath,
  type IterableObservable,
} from '@zkrecipes/framework';
import {
  assertClientStarted,
  checkClient,
  EventDispatcher,
  positiveIntegerOption,
  checkRecipeOptions,
} from '@zkrecipes/framework/recipe-support';
import {
  checkCallOptions,
  raceCallLimits,
  withCallLimits,
  type CallOptions,
} from './call-options.js';
import { InstanceQueries } from './instance-queries.js';
import { JsonInstanceSerializer, type InstanceSerializer } from './json-instance-serializer.js';
import { Registration } from './registration.js';
import { ServiceCache, type ServiceCacheOptions } from './service-cache.js';
import {
  checkInstanceKey,
  checkNodeName,
  checkServiceInstance,
  type ServiceInstance,
  type ServicePayload,
} from './service-instance.js';
import { ServiceProvider, type ServiceProviderOptions } from './service-provider.js';

/** Options of {@link ServiceDiscovery}. */
export interface ServiceDiscoveryOptions<P extends ServicePayload = ServicePayload> {
  /** Default: a {@link JsonInstanceSerializer} in compatible mode, as Curator's default. */
  readonly serializer?: InstanceSerializer<P> | undefined;
  /** Registered by `start()` (Curator's builder `thisInstance`). Default: none. */
  readonly thisInstance?: ServiceInstance<P> | undefined;
  /** Instance reads in flight at most in `queryForInstances`. Default: 64. */
  readonly concurrency?: number | undefined;
}

/**
 * Curator's service discovery (`ServiceDiscovery` of curator-x-discovery) on one base path:
 * instances of a service are the nodes `<basePath>/<name>/<id>`, each holding the instance as
 * Curator's `JsonInstanceSerializer` writes it, so Java and Node services find each other.
 *
 * Registrations stay in place: re-created after a new session (Curator re-registers on
 * RECONNECTED), and also when their node is deleted underneath. `close()` removes every
 * instance registered through this object and closes the caches and providers it made.
 *
 * ```ts
 * await using discovery = new ServiceDiscovery(client, '/services');
 * await discovery.start();
 * await discovery.registerService(createServiceInstance({ name: 'api', port: 8080 }));
 * const instances = await discovery.queryForInstances('api', { timeoutMs: 5000 });
 * ```
 */
export class ServiceDiscovery<P extends ServicePayload = ServicePayload> {
  readonly #client: FrameworkClient;
  readonly #basePath: string;
  readonly #serializer: InstanceSerializer<P>;
  readonly #thisInstance: ServiceInstance<P> | undefined;
  readonly #queries: InstanceQueries<P>;
  readonly #logger: Logger;
  readonly #dispatcher: EventDispatcher<never>;
  readonly #closer = new AbortController();
  readonly #registrations = new Map<string, Registration<P>>();
  readonly #closables = new Set<{ close(): Promise<void> }>();
  #state: RecipeState = RecipeState.LATENT;
  #closing: Promise<void> | undefined;

  constructor(client: FrameworkClient, basePath: string, options: ServiceDiscoveryOptions<P> = {}) {
    checkClient('ServiceDiscovery', client);
    validatePath(basePath, { allowRoot: false });
    checkRecipeOptions('ServiceDiscovery', options, ['serializer', 'thisInstance', 'concurrency']);
    const serializer = options.serializer ?? new JsonInstanceSerializer<P>();
    if (
      typeof serializer?.serialize !== 'function' ||
      typeof serializer.deserialize !== 'function'
    ) {
      throw new InvalidArgumentError('serializer must have serialize() and deserialize()');
    }
    this.#client = client;
    this.#basePath = basePath;
    this.#serializer = serializer;
    const concurrency = positiveIntegerOption('concurrency', options.concurrency, 64);
    if (options.thisInstance !== undefined) {
      this.#serialize(options.thisInstance); // a bad instance fails here, not in start()
    }
    this.#thisInstance = options.thisInstance;
    this.#logger = client.logger.child({ component: 'ServiceDiscovery', path: basePath });
    this.#dispatcher = new EventDispatcher(new Subject<never>(), client, 'discovery');
    this.#queries = new InstanceQueries(client, serializer, concurrency, (error, context) =>
      this.#dispatcher.report(error, context),
    );
  }

  /** LATENT until start(), STARTED, CLOSED after close(). */
  get state(): RecipeState {
    return this.#state;
  }

  /** The base path every service lives under. */
  get basePath(): string {
    return this.#basePath;
  }

  /** The serializer of instance nodes (the caches and providers made here use it too). */
  get serializer(): InstanceSerializer<P> {
    return this.#serializer;
  }

  /** The client this discovery uses. */
  get client(): FrameworkClient {
    return this.#client;
  }

  /** Background failures: a registration that could not be (re-)created or written yet. */
  get errors(): IterableObservable<RecipeError> {
    return this.#dispatcher.errors;
  }

  /** The path of a service's instances: `<basePath>/<name>`. */
  pathForName(name: string): string {
    return joinPath(this.#basePath, checkNodeName('service name', name, false));
  }

  /**
   * Starts the discovery and registers `thisInstance` if one was given, resolving once its
   * node exists (a timeout or abort rejects; the registration carries on). A second start
   * rejects with IllegalStateError, and so does a start on a client not started yet (on a closed
   * one: ClosedError), with or without `thisInstance`, before anything: the discovery can be
   * started once the client is.
   */
  async start(options?: CallOptions): Promise<void> {
    const limits = checkCallOptions(options);
    if (this.#state !== RecipeState.LATENT) {
      throw new IllegalStateError(`start() on a ${this.#state} ServiceDiscovery`, {
        path: this.#basePath,
      });
    }
    limits.signal?.throwIfAborted(); // before anything is sent, and still LATENT
    // Even with nothing to register: every later call would fail on such a client.
    assertClientStarted(this.#client, this.#basePath);
    this.#state = RecipeState.STARTED;
    if (this.#thisInstance !== undefined) await this.registerService(this.#thisInstance, limits);
  }

  /**
   * Registers an instance, or re-registers one with the same id (same name and type: its data
   * is replaced in place). Resolves once the node exists. On a timeout or abort the call
   * rejects but the registration stays and is created when the server can be reached (as
   * Curator's "will try again later"); `unregisterService` or `close()` ends it.
   */
  async registerService(instance: ServiceInstance<P>, options?: CallOptions): Promise<void> {
    const limits = checkCallOptions(options);
    const bytes = this.#serialize(instance);
    this.#assertStarted('registerService');
    limits.signal?.throwIfAborted(); // before anything is sent
    const key = keyOf(instance);
    const existing = this.#registrations.get(key);
    if (existing !== undefined && existing.sameNode(instance)) {
      existing.instance = instance;
      await raceCallLimits(
        limits,
        this.#closer.signal,
        'registerService',
        existing.node.setData(bytes),
      );
      return;
    }
    if (existing !== undefined) await this.unregisterService(existing.instance);
    const registration = new Registration(
      this.#client,
      this.pathForName(instance.name),
      instance,
      bytes,
      // The node reported each to the client already: only this recipe's stream gets it again.
      (error, context) => {
        if (!isClosed(error)) this.#dispatcher.forward(error, context);
      },
      this.#logger,
    );
    this.#registrations.set(key, registration);
    await registration.node.start();
    await withCallLimits(limits, this.#closer.signal, 'registerService', async (signal) => {
      if (!(await registration.node.waitForInitialCreate({ signal }))) signal.throwIfAborted();
    });
  }

  /**
   * Writes new data for a registered instance (same id). Resolves once the server holds it;
   * the new data is kept for re-creations either way. Not registered: IllegalStateError.
   */
  async updateService(instance: ServiceInstance<P>, options?: CallOptions): Promise<void> {
    const limits = checkCallOptions(options);
    const bytes = this.#serialize(instance);
    this.#assertStarted('updateService');
    const registration = this.#registrations.get(keyOf(instance));
    if (registration === undefined || !registration.sameNode(instance)) {
      throw new IllegalStateError(
        `updateService(): ${instance.name}/${instance.id} is not registered here (same name, id and type)`,
      );
    }
    limits.signal?.throwIfAborted(); // before anything is sent
    registration.instance = instance;
    await raceCallLimits(
      limits,
      this.#closer.signal,
      'updateService',
      registration.node.setData(bytes),
    );
  }

  /**
   * Removes a registered instance (the same name and id) and deletes its node. Prompt: during
   * an outage the delete is left to the client's guaranteed deletes. Unknown instances are
   * ignored, as in Curator.
   */
  async unregisterService(instance: ServiceInstance<P>): Promise<void> {
    checkInstanceKey('unregisterService', instance);
    const key = keyOf(instance);
    const registration = this.#registrations.get(key);
    if (registration === undefined) return;
    this.#registrations.delete(key);
    await registration.node.close();
  }

  /** The instances registered through this object (as last registered or updated). */
  getRegisteredInstances(): ServiceInstance<P>[] {
    return [...this.#registrations.values()].map((r) => r.instance);
  }

  /** The names of every service under the base path, sorted; none when it does not exist. */
  async queryForNames(options?: CallOptions): Promise<string[]> {
    const limits = checkCallOptions(options);
    this.#assertStarted('queryForNames');
    return withCallLimits(limits, this.#closer.signal, 'queryForNames', (signal) =>
      this.#queries.names(this.#basePath, signal),
    );
  }

  /**
   * Every instance of a service, in node-name order; none when the service does not exist.
   * Nodes that vanish while read or do not hold an instance are left out (and reported on
   * {@link errors}).
   */
  async queryForInstances(name: string, options?: CallOptions): Promise<ServiceInstance<P>[]> {
    const path = this.pathForName(name);
    const limits = checkCallOptions(options);
    this.#assertStarted('queryForInstances');
    return withCallLimits(limits, this.#closer.signal, 'queryForInstances', (signal) =>
      this.#queries.instances(path, signal),
    );
  }

  /** One instance by service name and node name, or undefined when there is no such node. */
  async queryForInstance(
    name: string,
    id: string,
    options?: CallOptions,
  ): Promise<ServiceInstance<P> | undefined> {
    const path = joinPath(this.pathForName(name), checkNodeName('id', id, false));
    const limits = checkCallOptions(options);
    this.#assertStarted('queryForInstance');
    return withCallLimits(limits, this.#closer.signal, 'queryForInstance', (signal) =>
      this.#queries.instance(path, signal),
    );
  }

  /** A cache of one service's instances (Curator's `serviceCacheBuilder()`); closed with this. */
  serviceCache(name: string, options?: ServiceCacheOptions): ServiceCache<P> {
    this.#assertStarted('serviceCache');
    const cache = new ServiceCache(this, name, options);
    this.#track(cache);
    return cache;
  }

  /** A provider of one service's instances (Curator's `serviceProviderBuilder()`); closed with this. */
  serviceProvider(name: string, options?: ServiceProviderOptions<P>): ServiceProvider<P> {
    this.#assertStarted('serviceProvider');
    const provider = new ServiceProvider(this, name, options);
    this.#track(provider);
    return provider;
  }

  /**
   * Closes the providers and caches made here, unregisters every instance registered here
   * (STATIC and PERMANENT ones too, as Curator does) and stops. Prompt in any connection state:
   * deletes the server cannot take now are left to the client's guaranteed deletes. Twice is
   * a no-op.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#state = RecipeState.CLOSED;
      this.#closer.abort(
        new ClosedError({ path: this.#basePath, detail: 'ServiceDiscovery closed' }),
      );
      const closables = [...this.#closables];
      this.#closables.clear();
      await Promise.all(closables.map((c) => c.close()));
      const registrations = [...this.#registrations.values()];
      this.#registrations.clear();
      await Promise.all(registrations.map((r) => r.node.close()));
      this.#dispatcher.close();
    })();
    return this.#closing;
  }

  /** Calls `close()`, so `await using` releases this at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #serialize(instance: ServiceInstance<P>): Buffer {
    // Every field, as createServiceInstance checks it: a hand-made instance (or a plain
    // JavaScript caller's) is written only when it is one, whatever the serializer checks.
    checkServiceInstance(instance, 'instance ');
    return this.#serializer.serialize(instance);
  }

  #track(closable: { close(): Promise<void>; closed: Promise<void> }): void {
    this.#closables.add(closable);
    void closable.closed.then(() => this.#closables.delete(closable));
  }

  #assertStarted(operation: string): void {
    if (this.#state === RecipeState.CLOSED) {
      throw new ClosedError({ path: this.#basePath, detail: 'ServiceDiscovery closed' });
    }
    if (this.#state !== RecipeState.STARTED) {
      throw new IllegalStateError(`${operation}() before start()`, { path: this.#basePath });
    }
  }
}

/** Registrations are told apart by service and id (Curator's map, by id only, mixes services). */
function keyOf(instance: ServiceInstance): string {
  return `${instance.name}/${instance.id}`;
}
