import {
  type FrameworkClient,
  InvalidArgumentError,
  joinPath,
  type Logger,
  type SignalOptions,
  validatePath,
} from '@zkrecipes/framework';
import {
  assertClientStarted,
  untilFirstConnection,
  checkClient,
  checkSignalOptions,
  checkRecipeOptions,
  positiveIntegerOption,
  connectionStreamOf,
  type ConnectionStream,
  untilAborted,
  describeValue,
} from '@zkrecipes/framework/recipe-support';
import { AcquireLimits } from './acquire-limits.js';
import { checkAcquireArguments, checkNodeData } from './check-arguments.js';
import { HoldValidity } from './hold-validity.js';
import type { AcquireOptions } from './interprocess-lock.js';
import { Lease } from './lease.js';
import { LEASE_DRIVER, MUTEX_DRIVER } from './lock-driver.js';
import { LockInternals } from './lock-internals.js';
import {
  LockName,
  SEMAPHORE_LEASES,
  SEMAPHORE_LOCKS,
  sortParticipants,
} from './lock-node-names.js';
import { removeOwnNode } from './own-node.js';
import { listChildren } from './queue-watch.js';
import { NODE_VANISHED, VanishedRetries } from './retry-vanished.js';
import { LockTelemetry } from './lock-telemetry.js';
import type { SharedCountReader } from './shared-count-reader.js';

/** Options of {@link InterProcessSemaphoreV2}. */
export interface InterProcessSemaphoreV2Options {
  /** Data stored in each lease node (Curator's `setNodeData`). Default: empty. */
  readonly nodeData?: Uint8Array | undefined;
}

/** Any number of leases (a count that large is the same as no limit): a small integer. */
const MOST_LEASES = 0x3fffffff;

/**
 * A counting semaphore across processes (Curator's `InterProcessSemaphoreV2`): at most
 * `maxLeases` leases exist at once on `path`. Same layout as Curator, so Java and Node share
 * one semaphore: leases are `<path>/leases/_c_<uuid>-lease-<sequence>`, and lease creation is
 * serialised by a mutex at `<path>/locks` (without it, two newcomers could both see the
 * semaphore over-full and wait for each other forever).
 *
 * Every participant must use the same `maxLeases`: nothing on the wire records it. Or size it
 * by a shared count (Curator's `SharedCountReader` constructor): the limit is then the count's
 * value, followed as it changes (waiting acquires look again when it grows).
 *
 * @example
 * const semaphore = new InterProcessSemaphoreV2(client, '/app/semaphores/exports', 3);
 * const lease = await semaphore.acquire();
 * try { await runExport({ signal: lease.lost }); } finally { await lease.close(); }
 */
export class InterProcessSemaphoreV2 {
  readonly #client: FrameworkClient;
  /** The fixed limit; undefined when sized by {@link #count}. */
  readonly #maxLeases: number | undefined;
  readonly #count: SharedCountReader | undefined;
  readonly #leasesPath: string;
  readonly #lock: LockInternals;
  readonly #leases: LockInternals;
  readonly #nodeData: Uint8Array | undefined;
  readonly #watch: ConnectionStream;
  readonly #logger: Logger;
  readonly #telemetry: LockTelemetry;

  /**
   * @param maxLeases how many leases may exist at once: a whole number >= 1, or a shared count
   *   (`SharedCount` of `@zkrecipes/atomic`, started) whose value is the limit as it changes; a
   *   count of 0 or less lets no acquire in until it grows
   */
  constructor(
    client: FrameworkClient,
    path: string,
    maxLeases: number | SharedCountReader,
    options: InterProcessSemaphoreV2Options = {},
  ) {
    checkClient('InterProcessSemaphoreV2', client);
    validatePath(path);
    const count = checkMaxLeases(maxLeases, path);
    this.#client = client;
    checkRecipeOptions('InterProcessSemaphoreV2', options, ['nodeData']);
    this.#maxLeases = typeof count === 'number' ? count : undefined;
    this.#count = typeof count === 'number' ? undefined : count;
    this.#nodeData = checkNodeData('nodeData', options.nodeData);
    this.#leasesPath = joinPath(path, SEMAPHORE_LEASES);
    this.#lock = new LockInternals(client, joinPath(path, SEMAPHORE_LOCKS), {
      driver: MUTEX_DRIVER,
      lockName: LockName.MUTEX,
      maxLeases: 1,
      component: 'InterProcessSemaphoreV2',
    });
    this.#leases = new LockInternals(client, this.#leasesPath, {
      driver: LEASE_DRIVER,
      lockName: LockName.LEASE,
      maxLeases: this.#maxLeases ?? 1,
      data: this.#nodeData,
      component: 'InterProcessSemaphoreV2',
    });
    this.#watch = connectionStreamOf(client);
    this.#logger = client.logger.child({ component: 'InterProcessSemaphoreV2', path });
    this.#telemetry = new LockTelemetry(client, 'InterProcessSemaphoreV2', path);
  }

  /** Waits for one lease (Curator's `acquire()`). */
  acquire(): Promise<Lease>;
  /** Waits for `qty` leases (Curator's `acquire(qty)`). */
  acquire(qty: number, timeoutMs?: undefined, options?: AcquireOptions): Promise<Lease[]>;
  /**
   * Waits at most `timeoutMs` for `qty` leases (Curator's `acquire(qty, time, unit)`), in any
   * connection state: all of them, or undefined, in which case the ones already taken have been
   * returned. `acquire(1, 0)` never waits: when the semaphore is full it answers with one read,
   * and when the client is not connected it answers undefined without sending anything.
   *
   * A `qty` above a fixed `maxLeases` could never be granted: it fails with
   * InvalidArgumentError before anything is sent (with a shared count it waits for the count to
   * grow, within `timeoutMs` and `signal`).
   */
  acquire(qty: number, timeoutMs: number, options?: AcquireOptions): Promise<Lease[] | undefined>;
  async acquire(
    qty?: number,
    timeoutMs?: number,
    options: AcquireOptions = {},
  ): Promise<Lease | Lease[] | undefined> {
    const count = positiveIntegerOption('qty', qty, 1);
    if (this.#maxLeases !== undefined && count > this.#maxLeases) {
      throw new InvalidArgumentError(
        `qty ${count} is more than maxLeases ${this.#maxLeases}: it could never be granted`,
        { path: this.#leasesPath },
      );
    }
    const signal = checkAcquireArguments(timeoutMs, options);
    // The time limit counts from the client's first connection (see untilFirstConnection).
    const connecting = untilFirstConnection(this.#client, signal);
    if (connecting !== undefined) await connecting;
    using limits = AcquireLimits.of(this.#watch, timeoutMs, signal);
    const stopFollowing = this.#followCount();
    const trace = this.#telemetry.acquireStarted(timeoutMs);
    let leases: Lease[] | undefined;
    try {
      leases = await this.#acquireLeases(count, limits);
      trace.end(leases === undefined ? 'timed_out' : 'acquired');
    } catch (error) {
      const ranOut = limits.ranOut(error);
      trace.end(ranOut ? 'timed_out' : 'error', error);
      if (ranOut) return undefined;
      throw error;
    } finally {
      stopFollowing?.();
    }
    for (const lease of leases ?? []) lease.traced(this.#telemetry);
    return qty === undefined ? leases?.[0] : leases;
  }

  /** Closes a lease, never throwing (Curator's `returnLease`). */
  async returnLease(lease: Lease): Promise<void> {
    if (!(lease instanceof Lease)) {
      throw new InvalidArgumentError(
        `returnLease takes a Lease from acquire(); got ${describeValue(lease)}`,
      );
    }
    await lease.close().catch((error: unknown) => {
      this.#logger.debug('lease close failed; retrying in the background', { error });
    });
  }

  /**
   * Closes every lease, never throwing (Curator's `returnAll`). The closes run side by side: on
   * a link gone silent each waits about 1 s for its answer, not 1 s per lease in turn.
   */
  async returnAll(leases: Iterable<Lease>): Promise<void> {
    const iterable = leases !== null && typeof leases === 'object' && Symbol.iterator in leases;
    const list: unknown[] = iterable ? [...leases] : [leases];
    const notLease = list.find((lease) => !(lease instanceof Lease));
    if (!iterable || notLease !== undefined) {
      throw new InvalidArgumentError(
        `returnAll takes the Leases from acquire(); got ${describeValue(iterable ? notLease : leases)}`,
      );
    }
    await Promise.all((list as Lease[]).map((lease) => this.returnLease(lease)));
  }

  /**
   * The lease node names present now (Curator's `getParticipantNodes`). Aborting `signal`
   * rejects with its reason at once, in any connection state (the read is given it).
   */
  async getParticipantNodes(options: SignalOptions = {}): Promise<string[]> {
    const signal = checkSignalOptions(options);
    const children = await listChildren(this.#client, this.#leasesPath, signal);
    return sortParticipants(children, [LockName.LEASE]);
  }

  /** The limit now: the fixed one, or the shared count's value, clamped to 0 .. MOST_LEASES. */
  #currentMaxLeases(): number {
    if (this.#count === undefined) return this.#maxLeases!;
    return Math.min(Math.max(this.#count.getCount(), 0), MOST_LEASES);
  }

  /**
   * With a shared count: takes its value now, and follows its changes until disposed (at the
   * end of the acquire: call what it returns), waking the waits when it changes, as Curator's
   * listener does.
   */
  #followCount(): (() => void) | undefined {
    const count = this.#count;
    if (count === undefined) return undefined;
    const follow = (): void => this.#leases.setMaxLeases(this.#currentMaxLeases());
    follow();
    return count.on('countChanged', follow);
  }

  async #acquireLeases(qty: number, limits: AcquireLimits): Promise<Lease[] | undefined> {
    limits.throwIfAborted();
    if (limits.tryOnly) {
      // Not connected: nobody can know how many leases are out, and acquire(0) waits for nothing
      // (a client not started or closed is an error, as for every other call).
      if (!this.#client.isConnected) {
        assertClientStarted(this.#client, this.#leasesPath);
        return undefined;
      }
      // Full now: one read answers, nothing is left behind.
      // Raced against the connection, like a lock's acquire(0) read (see LockInternals).
      const read = listChildren(this.#client, this.#leasesPath, undefined);
      const leases = await untilAborted(read, limits.signal);
      const taken = sortParticipants(leases, [LockName.LEASE]);
      if (taken.length + qty > this.#currentMaxLeases()) return undefined;
    }
    for (;;) {
      const leases = await this.#takeLeases(qty, limits);
      if (leases === undefined) return undefined;
      // Each lease was granted valid, but the ones after it (and each let-go of the mutex) took
      // round trips: handed out only if all still are. One that is not may be gone (a loss came
      // since, or the session is unproven after a stall): give them all back and queue again
      // while the time lasts, as after a lease that vanished.
      if (leases.every((lease) => lease.isValid())) return leases;
      this.#logger.debug('a lease went unproven while the others were taken; queueing again');
      await this.#discardAll(leases, limits);
      if (limits.expired) return undefined;
    }
  }

  /** `qty` leases, or undefined (none kept) when the time ran out first. */
  async #takeLeases(qty: number, limits: AcquireLimits): Promise<Lease[] | undefined> {
    const leases: Lease[] = [];
    try {
      while (leases.length < qty) {
        const lease = await this.#acquireOne(limits);
        if (lease === undefined) break;
        leases.push(lease);
      }
    } catch (error) {
      await this.#discardAll(leases, limits);
      throw error;
    }
    if (leases.length === qty) return leases;
    await this.#discardAll(leases, limits);
    return undefined;
  }

  /**
   * One lease (Curator's `internalAcquire1Lease`): queued under the semaphore's own mutex, it
   * waits until the leases fit `maxLeases` (the locks' loop, with the lease driver). If it
   * vanishes with its session, the mutex went with it: both are taken again.
   */
  async #acquireOne(limits: AcquireLimits): Promise<Lease | undefined> {
    let retries: VanishedRetries | undefined;
    for (;;) {
      const outcome = await this.#attemptOne(limits);
      if (outcome !== NODE_VANISHED) return outcome;
      retries ??= new VanishedRetries(this.#client, {
        path: this.#leasesPath,
        logger: this.#logger,
        signal: limits.signal,
      });
      await retries.afterVanished();
    }
  }

  /** One pass of {@link #acquireOne}: the mutex, then the lease under it. */
  async #attemptOne(limits: AcquireLimits): Promise<Lease | undefined | typeof NODE_VANISHED> {
    const lock = await this.#lock.attemptLock({ limits });
    if (lock === undefined) return undefined;
    try {
      const lease = await this.#leases.attemptOnce({ limits });
      if (lease === undefined || lease === NODE_VANISHED) return lease;
      const validity = new HoldValidity(this.#watch, lease.epoch, lease.path);
      return new Lease(this.#client, lease.path, lease.fencingToken, validity);
    } finally {
      await this.#letGo(lock.path, limits);
    }
  }

  /** Returns leases an acquire took but will not hand out, waiting only while its time lasts. */
  async #discardAll(leases: readonly Lease[], limits: AcquireLimits): Promise<void> {
    for (const lease of leases) {
      await lease.discard({ logger: this.#logger, signal: limits.signal });
    }
  }

  /** Removes our turn at the mutex, waiting only while the call's time lasts. */
  #letGo(path: string, limits: AcquireLimits): Promise<void> {
    return removeOwnNode(this.#client, path, { logger: this.#logger, signal: limits.signal });
  }
}

/** A fixed limit (a whole number >= 1) or a shared count; anything else throws. */
function checkMaxLeases(maxLeases: unknown, path: string): number | SharedCountReader {
  if (typeof maxLeases === 'number' && Number.isSafeInteger(maxLeases) && maxLeases >= 1) {
    return maxLeases;
  }
  const reader = maxLeases as Partial<SharedCountReader> | null;
  if (
    typeof reader === 'object' &&
    reader !== null &&
    typeof reader.getCount === 'function' &&
    typeof reader.on === 'function'
  ) {
    return reader as SharedCountReader;
  }
  throw new InvalidArgumentError(
    `maxLeases must be a whole number >= 1 or a shared count (getCount and on('countChanged')); got ${describeValue(maxLeases)}`,
    { path },
  );
}
