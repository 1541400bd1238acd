import {
  InvalidArgumentError,
  isNoNode,
  joinPath,
  NoNodeError,
  validatePath,
  type FrameworkClient,
  type Logger,
} from '@zkrecipes/framework';
import {
  checkAcquireArguments,
  checkNodeData,
  checkOptionsObject,
  remainingMs,
} from './check-arguments.js';
import { ConnectionWatch, LossSignal } from './connection-watch.js';
import type { AcquireOptions } from './interprocess-lock.js';
import { Lease } from './lease.js';
import { MUTEX_DRIVER } from './lock-driver.js';
import { LockInternals } from './lock-internals.js';
import {
  LockName,
  SEMAPHORE_LEASES,
  SEMAPHORE_LOCKS,
  sortParticipants,
} from './lock-node-names.js';
import { sleepUnlessAborted, waitForWake } from './wait-for-wake.js';

/** Options of {@link InterProcessSemaphoreV2}. */
export interface InterProcessSemaphoreV2Options {
  /** Data stored in each lease node (Curator's `setNodeData`). Default: empty. */
  readonly nodeData?: Uint8Array | undefined;
}

/** The lease node went with its session before we could count it. */
const LEASE_VANISHED = Symbol('lease vanished');

/**
 * A counting semaphore across processes (Curator's `InterProcessSemaphoreV2`): at most
 * `maxLeases` leases exist at once on `path`. Same layout as Curator, so Java and Node share
 * one semaphore: leases are `<path>/leases/_c_<uuid>-lease-<sequence>`, and lease creation is
 * serialised by a mutex at `<path>/locks` (without it, two newcomers could both see the
 * semaphore over-full and wait for each other forever).
 *
 * Every participant must use the same `maxLeases`: nothing on the wire records it.
 *
 * @example
 * const semaphore = new InterProcessSemaphoreV2(client, '/app/semaphores/exports', 3);
 * const lease = await semaphore.acquire();
 * try { await runExport(); } finally { await lease.close(); }
 */
export class InterProcessSemaphoreV2 {
  readonly #client: FrameworkClient;
  readonly #maxLeases: number;
  readonly #leasesPath: string;
  readonly #lock: LockInternals;
  readonly #nodeData: Uint8Array | undefined;
  readonly #watch: ConnectionWatch;
  readonly #logger: Logger;

  constructor(
    client: FrameworkClient,
    path: string,
    maxLeases: number,
    options: InterProcessSemaphoreV2Options = {},
  ) {
    validatePath(path);
    if (!Number.isSafeInteger(maxLeases) || maxLeases < 1) {
      throw new InvalidArgumentError(`maxLeases must be a whole number >= 1; got ${maxLeases}`, {
        path,
      });
    }
    checkOptionsObject(options);
    this.#client = client;
    this.#maxLeases = maxLeases;
    this.#nodeData = checkNodeData('nodeData', options.nodeData);
    this.#leasesPath = joinPath(path, SEMAPHORE_LEASES);
    this.#lock = new LockInternals(client, joinPath(path, SEMAPHORE_LOCKS), {
      driver: MUTEX_DRIVER,
      lockName: LockName.MUTEX,
      maxLeases: 1,
      component: 'InterProcessSemaphoreV2',
    });
    this.#watch = ConnectionWatch.of(client);
    this.#logger = client.logger.child({ component: 'InterProcessSemaphoreV2', path });
  }

  /** Waits for one lease (Curator's `acquire()`). */
  acquire(): Promise<Lease>;
  /** Waits for `qty` leases (Curator's `acquire(qty)`). */
  acquire(qty: number, timeoutMs?: undefined, options?: AcquireOptions): Promise<Lease[]>;
  /**
   * Waits at most `timeoutMs` for `qty` leases (Curator's `acquire(qty, time, unit)`): all of
   * them, or undefined, in which case the ones already taken have been returned.
   * `acquire(1, 0)` never waits: when the semaphore is full it answers with one read.
   */
  acquire(qty: number, timeoutMs: number, options?: AcquireOptions): Promise<Lease[] | undefined>;
  async acquire(
    qty?: number,
    timeoutMs?: number,
    options: AcquireOptions = {},
  ): Promise<Lease | Lease[] | undefined> {
    if (qty === undefined) return (await this.#acquireLeases(1, undefined, undefined))![0]!;
    if (!Number.isSafeInteger(qty) || qty < 1) {
      throw new InvalidArgumentError(`qty must be a whole number >= 1; got ${qty}`);
    }
    const signal = checkAcquireArguments(timeoutMs, options);
    return this.#acquireLeases(qty, timeoutMs, signal);
  }

  /** Closes a lease, never throwing (Curator's `returnLease`). */
  async returnLease(lease: Lease): Promise<void> {
    await lease.close().catch((error: unknown) => {
      this.#logger.debug('lease close failed; retrying in the background', { error });
    });
  }

  /** Closes every lease, never throwing (Curator's `returnAll`). */
  async returnAll(leases: Iterable<Lease>): Promise<void> {
    for (const lease of leases) await this.returnLease(lease);
  }

  /** The lease node names present now (Curator's `getParticipantNodes`). */
  async getParticipantNodes(): Promise<string[]> {
    return sortParticipants(await this.#readLeases(), [LockName.LEASE]);
  }

  async #acquireLeases(
    qty: number,
    timeoutMs: number | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Lease[] | undefined> {
    signal?.throwIfAborted();
    const deadlineMs = timeoutMs === undefined ? undefined : performance.now() + timeoutMs;
    if (timeoutMs === 0) {
      // Full now: one read answers, nothing is left behind.
      const taken = sortParticipants(await this.#readLeases(), [LockName.LEASE]).length;
      if (taken + qty > this.#maxLeases) return undefined;
    }
    const leases: Lease[] = [];
    try {
      while (leases.length < qty) {
        const lease = await this.#acquireOne(deadlineMs, signal);
        if (lease === undefined) {
          await this.returnAll(leases);
          return undefined;
        }
        leases.push(lease);
      }
      return leases;
    } catch (error) {
      await this.returnAll(leases);
      throw error;
    }
  }

  /** One lease (Curator's `internalAcquire1Lease`), under the semaphore's own mutex. */
  async #acquireOne(
    deadlineMs: number | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Lease | undefined> {
    const startMs = performance.now();
    for (let retryCount = 0; ; retryCount++) {
      const lock = await this.#lock.attemptLock({ timeoutMs: remainingMs(deadlineMs), signal });
      if (lock === undefined) return undefined;
      let outcome: Lease | undefined | typeof LEASE_VANISHED;
      try {
        outcome = await this.#createLease(deadlineMs, signal);
      } finally {
        await this.#lock.releaseLock(lock.path).catch((error: unknown) => {
          this.#logger.debug('semaphore lock release failed; retrying in the background', {
            error,
          });
        });
      }
      if (outcome !== LEASE_VANISHED) return outcome;
      const error = new NoNodeError({
        path: this.#leasesPath,
        detail: 'our lease node vanished (its session ended) while we waited',
      });
      const delayMs = this.#client.retryPolicy.nextDelayMs({
        retryCount,
        elapsedMs: performance.now() - startMs,
        error,
      });
      if (delayMs === undefined) throw error;
      await sleepUnlessAborted(Math.min(delayMs, remainingMs(deadlineMs) ?? delayMs), signal);
    }
  }

  /**
   * Creates our lease (the create and the first count pipelined) and waits until the leases
   * fit `maxLeases`. Only a wait sets a watch; a lease that fits at once leaves none.
   */
  async #createLease(
    deadlineMs: number | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Lease | undefined | typeof LEASE_VANISHED> {
    let epoch = this.#watch.epoch;
    const created = this.#client.create(joinPath(this.#leasesPath, LockName.LEASE), {
      mode: 'EPHEMERAL_SEQUENTIAL',
      protection: true,
      createParents: true,
      data: this.#nodeData,
    });
    const firstRead = this.#client.getChildren(this.#leasesPath).then(
      (children) => children,
      () => undefined,
    );
    const path = await created;
    const session = this.#client.sessionId; // a lease of an earlier session will vanish
    const ourName = path.slice(path.lastIndexOf('/') + 1);
    let children = await firstRead;
    let watched: Promise<void> | undefined;
    const silence = new AbortController();
    try {
      for (let fresh = false; ; fresh = true) {
        signal?.throwIfAborted();
        if (this.#client.sessionId !== session) {
          await this.#deleteQuietly(path);
          return LEASE_VANISHED;
        }
        if (children === undefined || !children.includes(ourName)) {
          // The pipelined read can predate our node (a retried create): look again, once.
          if (fresh) {
            await this.#deleteQuietly(path);
            return LEASE_VANISHED;
          }
          epoch = this.#watch.epoch;
          children = await this.#readLeases();
          continue;
        }
        const count = sortParticipants(children, [LockName.LEASE]).length;
        if (count <= this.#maxLeases) {
          return new Lease(this.#client, path, new LossSignal(this.#watch, epoch, path));
        }
        const leftMs = remainingMs(deadlineMs);
        if (leftMs === 0) {
          await this.#deleteQuietly(path);
          return undefined;
        }
        if (watched !== undefined) {
          const woke = await waitForWake(watched, {
            timeoutMs: leftMs,
            signal,
            closed: this.#watch.closedSignal,
          });
          if (woke === 'timeout') deadlineMs = performance.now();
        }
        // Count again, this time leaving a watch for the next change.
        let wake!: () => void;
        watched = new Promise<void>((resolve) => (wake = resolve));
        epoch = this.#watch.epoch;
        children = await this.#client.getChildren(this.#leasesPath, {
          watch: () => wake(),
          signal: silence.signal,
        });
      }
    } catch (error) {
      await this.#deleteQuietly(path);
      throw error;
    } finally {
      silence.abort();
    }
  }

  async #readLeases(): Promise<string[]> {
    try {
      return await this.#client.getChildren(this.#leasesPath);
    } catch (error) {
      if (isNoNode(error)) return [];
      throw error;
    }
  }

  async #deleteQuietly(path: string): Promise<void> {
    await this.#client.delete(path, { guaranteed: true, quietly: true }).catch((error: unknown) => {
      this.#logger.debug('could not delete our lease node yet; retrying in the background', {
        leasePath: path,
        error,
      });
    });
  }
}
