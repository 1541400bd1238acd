import { type FrameworkClient } from '@zkrecipes/framework';
import { checkClient } from '@zkrecipes/framework/recipe-support';
import { checkAcquireArguments } from './check-arguments.js';
import { IllegalMonitorStateError } from './illegal-monitor-state-error.js';
import type { AcquireOptions, InterProcessLock } from './interprocess-lock.js';
import { InterProcessSemaphoreV2 } from './interprocess-semaphore-v2.js';
import type { Lease } from './lease.js';

/**
 * A non-reentrant mutex across processes (Curator's `InterProcessSemaphoreMutex`): a
 * semaphore with one lease, on Curator's `<path>/locks` + `<path>/leases` layout. Unlike
 * InterProcessMutex it has no owner: any caller may release it, and acquiring it again before
 * releasing waits like any other contender (in the same flow, forever).
 */
export class InterProcessSemaphoreMutex implements InterProcessLock {
  readonly #semaphore: InterProcessSemaphoreV2;
  readonly #path: string;
  #lease: Lease | undefined;

  constructor(client: FrameworkClient, path: string) {
    checkClient('InterProcessSemaphoreMutex', client);
    this.#semaphore = new InterProcessSemaphoreV2(client, path, 1);
    this.#path = path;
  }

  /** Waits for the lock; resolves true. */
  acquire(timeoutMs?: undefined, options?: AcquireOptions): Promise<true>;
  /** Waits at most `timeoutMs`: true when acquired, false when the time ran out. */
  acquire(timeoutMs: number | undefined, options?: AcquireOptions): Promise<boolean>;
  async acquire(timeoutMs?: number, options: AcquireOptions = {}): Promise<boolean> {
    checkAcquireArguments(timeoutMs, options);
    const leases =
      timeoutMs === undefined
        ? await this.#semaphore.acquire(1, undefined, options)
        : await this.#semaphore.acquire(1, timeoutMs, options);
    if (leases === undefined) return false; // keep the lease field as it was (Curator too)
    this.#lease = leases[0];
    return true;
  }

  /**
   * Gives the lock back (during an outage at once: the delete goes on in the background);
   * IllegalMonitorStateError when it is not held.
   */
  async release(): Promise<void> {
    const lease = this.#lease;
    if (lease === undefined) {
      throw new IllegalMonitorStateError('not acquired', { path: this.#path });
    }
    this.#lease = undefined;
    await lease.close();
  }

  /** True while this object holds the lease (Curator's `isAcquiredInThisProcess`). */
  isAcquiredInThisProcess(): boolean {
    return this.#lease !== undefined;
  }

  /**
   * The lease behind the current hold (its `lost` signal, `isValid()`, `validUntil`, its node),
   * or undefined.
   */
  get lease(): Lease | undefined {
    return this.#lease;
  }
}
