import { describeValue } from '@zkrecipes/framework/recipe-support';
import { InvalidArgumentError } from '@zkrecipes/framework';
import type { ServiceInstance, ServicePayload } from './service-instance.js';

/** Picks one instance out of the usable ones (Curator's `ProviderStrategy`). */
export interface ProviderStrategy<P extends ServicePayload = ServicePayload> {
  /** One of `instances`, or undefined when there is none. */
  getInstance(instances: readonly ServiceInstance<P>[]): ServiceInstance<P> | undefined;
}

/**
 * Curator's `RoundRobinStrategy`: a counter taken modulo the number of instances, so each is
 * handed out once per cycle while the set does not change. The order is the cache's (node
 * names sorted).
 */
export class RoundRobinStrategy<
  P extends ServicePayload = ServicePayload,
> implements ProviderStrategy<P> {
  #next = 0;

  getInstance(instances: readonly ServiceInstance<P>[]): ServiceInstance<P> | undefined {
    checkInstances(instances);
    if (instances.length === 0) return undefined;
    const index = this.#next % instances.length;
    this.#next = (this.#next + 1) % Number.MAX_SAFE_INTEGER;
    return instances[index];
  }
}

/** Curator's `RandomStrategy`: any instance, uniformly. */
export class RandomStrategy<
  P extends ServicePayload = ServicePayload,
> implements ProviderStrategy<P> {
  getInstance(instances: readonly ServiceInstance<P>[]): ServiceInstance<P> | undefined {
    checkInstances(instances);
    if (instances.length === 0) return undefined;
    return instances[Math.floor(Math.random() * instances.length)];
  }
}

/**
 * Curator's `StickyStrategy`: the same instance as long as it is usable; when it goes (or
 * is noted down), the wrapped strategy picks the next one.
 */
export class StickyStrategy<
  P extends ServicePayload = ServicePayload,
> implements ProviderStrategy<P> {
  readonly #master: ProviderStrategy<P>;
  #ours: ServiceInstance<P> | undefined;
  #instanceNumber = -1;

  constructor(master: ProviderStrategy<P> = new RoundRobinStrategy<P>()) {
    if (typeof (master as { getInstance?: unknown } | null)?.getInstance !== 'function') {
      throw new InvalidArgumentError(
        `a strategy needs getInstance(); got ${describeValue(master)}`,
      );
    }
    this.#master = master;
  }

  /** How many times a new instance was picked, minus one (Curator's `getInstanceNumber`). */
  get instanceNumber(): number {
    return this.#instanceNumber;
  }

  getInstance(instances: readonly ServiceInstance<P>[]): ServiceInstance<P> | undefined {
    checkInstances(instances);
    const ours = this.#ours;
    if (ours !== undefined) {
      const still = instances.find((i) => i.name === ours.name && i.id === ours.id);
      if (still !== undefined) return still;
      this.#ours = undefined;
    }
    this.#ours = this.#master.getInstance(instances);
    if (this.#ours !== undefined) this.#instanceNumber++;
    return this.#ours;
  }
}

/** The check of each strategy's `getInstance`: an array, else InvalidArgumentError. */
function checkInstances(instances: unknown): void {
  if (!Array.isArray(instances)) {
    throw new InvalidArgumentError(
      `getInstance() needs an array of instances; got ${describeValue(instances)}`,
    );
  }
}
