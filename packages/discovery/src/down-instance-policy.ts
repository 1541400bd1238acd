import { validateTimeoutMs } from '@zkrecipes/framework';
import {
  checkOptionsObject,
  checkRecipeOptions,
  positiveIntegerOption,
} from '@zkrecipes/framework/recipe-support';
import type { ServiceInstance } from './service-instance.js';

/** Curator's `DownInstancePolicy`: when `noteError` takes an instance out, and for how long. */
export interface DownInstancePolicy {
  /** How long an instance stays noted (counted from its first error). Default: 30000. */
  readonly timeoutMs?: number | undefined;
  /** Errors after which it is left out. Default: 2. */
  readonly errorThreshold?: number | undefined;
}

/**
 * The errors noted per instance (Curator's `DownInstanceManager`): an instance with
 * `errorThreshold` errors is filtered out until `timeoutMs` after its first one.
 */
export class DownInstances {
  readonly #timeoutMs: number;
  readonly #threshold: number;
  readonly #now: () => number;
  readonly #noted = new Map<string, { sinceMs: number; errors: number }>();

  constructor(policy: DownInstancePolicy = {}, now: () => number = () => performance.now()) {
    checkOptionsObject(policy, 'downInstancePolicy');
    checkRecipeOptions('downInstancePolicy', policy, ['timeoutMs', 'errorThreshold']);
    const timeoutMs = policy.timeoutMs ?? 30_000;
    validateTimeoutMs('downInstancePolicy.timeoutMs', timeoutMs);
    this.#timeoutMs = timeoutMs;
    this.#threshold = positiveIntegerOption(
      'downInstancePolicy.errorThreshold',
      policy.errorThreshold,
      2,
    );
    this.#now = now;
  }

  /** Notes one error of `instance`. */
  add(instance: ServiceInstance): void {
    this.#purge();
    const key = keyOf(instance);
    const status = this.#noted.get(key) ?? { sinceMs: this.#now(), errors: 0 };
    status.errors++;
    this.#noted.set(key, status);
  }

  /** False while `instance` counts as down. */
  isUp(instance: ServiceInstance): boolean {
    this.#purge();
    return (this.#noted.get(keyOf(instance))?.errors ?? 0) < this.#threshold;
  }

  #purge(): void {
    const now = this.#now();
    for (const [key, status] of this.#noted) {
      if (now - status.sinceMs >= this.#timeoutMs) this.#noted.delete(key);
    }
  }
}

function keyOf(instance: ServiceInstance): string {
  return `${instance.name}/${instance.id}`;
}
