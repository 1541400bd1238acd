import {
  InvalidArgumentError,
  type RecipeError,
  type RecipeState,
  type IterableObservable,
} from '@zkrecipes/framework';
import { checkRecipeOptions, describeValue } from '@zkrecipes/framework/recipe-support';
import type { CallOptions } from './call-options.js';
import { DownInstances, type DownInstancePolicy } from './down-instance-policy.js';
import { RoundRobinStrategy, type ProviderStrategy } from './provider-strategy.js';
import { checkDiscovery, ServiceCache } from './service-cache.js';
import { checkInstanceKey, type ServiceInstance, type ServicePayload } from './service-instance.js';
import type { ServiceDiscovery } from './service-discovery.js';

/** Options of {@link ServiceProvider}. */
export interface ServiceProviderOptions<P extends ServicePayload = ServicePayload> {
  /** Default: a {@link RoundRobinStrategy} (Curator's default). */
  readonly strategy?: ProviderStrategy<P> | undefined;
  /** More filters (Curator's `additionalFilter`); an instance must pass every one. */
  readonly filters?: readonly ((instance: ServiceInstance<P>) => boolean)[] | undefined;
  /** When `noteError` takes an instance out. Default: 2 errors, for 30 s. */
  readonly downInstancePolicy?: DownInstancePolicy | undefined;
}

/**
 * Hands out instances of one service (Curator's `ServiceProvider`): a {@link ServiceCache}
 * filtered by the given filters, the down-instance policy and `enabled`, then picked by the
 * strategy. Picks are synchronous: they read the cache, never the server.
 */
export class ServiceProvider<P extends ServicePayload = ServicePayload> {
  readonly #cache: ServiceCache<P>;
  readonly #strategy: ProviderStrategy<P>;
  readonly #filters: readonly ((instance: ServiceInstance<P>) => boolean)[];
  readonly #down: DownInstances;

  /** Usually made by `discovery.serviceProvider(name)`, which also closes it. */
  constructor(
    discovery: ServiceDiscovery<P>,
    name: string,
    options: ServiceProviderOptions<P> = {},
  ) {
    checkDiscovery('ServiceProvider', discovery);
    checkRecipeOptions('ServiceProvider', options, ['strategy', 'filters', 'downInstancePolicy']);
    const strategy = options.strategy ?? new RoundRobinStrategy<P>();
    if (typeof (strategy as { getInstance?: unknown } | null)?.getInstance !== 'function') {
      throw new InvalidArgumentError(
        `strategy must have getInstance(); got ${describeValue(strategy)}`,
      );
    }
    const filters: unknown = options.filters ?? [];
    if (!Array.isArray(filters) || filters.some((f) => typeof f !== 'function')) {
      throw new InvalidArgumentError(
        `filters must be an array of functions; got ${describeValue(filters)}`,
      );
    }
    this.#down = new DownInstances(options.downInstancePolicy);
    this.#strategy = strategy;
    this.#filters = [...(filters as readonly ((instance: ServiceInstance<P>) => boolean)[])];
    this.#cache = new ServiceCache(discovery, name);
  }

  /** LATENT until start(), STARTED, CLOSED after close(). */
  get state(): RecipeState {
    return this.#cache.state;
  }

  /** The underlying cache's instances (unfiltered), as a stream. */
  get instances(): IterableObservable<readonly ServiceInstance<P>[]> {
    return this.#cache.instances;
  }

  /** Background failures of the underlying cache. */
  get errors(): IterableObservable<RecipeError> {
    return this.#cache.errors;
  }

  /** Resolves once closed. */
  get closed(): Promise<void> {
    return this.#cache.closed;
  }

  /** Starts the cache; resolves once loaded (see {@link ServiceCache.start}). */
  start(options?: CallOptions): Promise<void> {
    return this.#cache.start(options);
  }

  /** Every usable instance: enabled, not down, passing the filters (Curator's `getAllInstances`). */
  getAllInstances(): ServiceInstance<P>[] {
    return this.#cache
      .getInstances()
      .filter((i) => i.enabled && this.#down.isUp(i) && this.#filters.every((f) => f(i)));
  }

  /** One usable instance as the strategy picks it, or undefined when there is none. */
  getInstance(): ServiceInstance<P> | undefined {
    return this.#strategy.getInstance(this.getAllInstances());
  }

  /**
   * Notes that a call to `instance` failed (see the down-instance policy). Not an instance
   * (a string name and id): InvalidArgumentError.
   */
  noteError(instance: ServiceInstance<P>): void {
    checkInstanceKey('noteError', instance);
    this.#down.add(instance);
  }

  /** Closes the cache. Twice is a no-op. */
  close(): Promise<void> {
    return this.#cache.close();
  }

  /** Calls `close()`, so `await using` releases this at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
