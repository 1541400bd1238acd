import { InvalidArgumentError, type FrameworkClient } from '@zkrecipes/framework';
import {
  checkClient,
  Deadline,
  untilAborted,
  describeValue,
} from '@zkrecipes/framework/recipe-support';
import { checkAcquireArguments } from './check-arguments.js';
import type { AcquireOptions, InterProcessLock } from './interprocess-lock.js';
import { InterProcessMutex } from './interprocess-mutex.js';
import { InterProcessSemaphoreMutex } from './interprocess-semaphore-mutex.js';
import { ReentrantLock } from './reentrant-lock.js';

/**
 * Several locks as one (Curator's `InterProcessMultiLock`): `acquire` takes them in the given
 * order and either holds all of them or, if one fails or the time runs out, none (the ones
 * taken are released in reverse order); `release` gives them back in reverse order, their
 * answers awaited together.
 *
 * Always list shared locks in the same order everywhere, or two multi-locks can deadlock.
 */
export class InterProcessMultiLock implements InterProcessLock {
  readonly #locks: readonly InterProcessLock[];

  /** A multi-lock over any locks (mutexes, read or write locks, semaphore mutexes). */
  constructor(locks: readonly InterProcessLock[]);
  /** A multi-lock of InterProcessMutexes on `paths` (each path once: InvalidArgumentError otherwise). */
  constructor(client: FrameworkClient, paths: readonly string[]);
  constructor(
    clientOrLocks: FrameworkClient | readonly InterProcessLock[],
    paths?: readonly string[],
  ) {
    this.#locks = Array.isArray(clientOrLocks)
      ? checkLocks(clientOrLocks as readonly unknown[])
      : mutexesOn(clientOrLocks as FrameworkClient, paths);
  }

  /** Takes every lock; resolves true. */
  acquire(timeoutMs?: undefined, options?: AcquireOptions): Promise<true>;
  /**
   * Takes every lock within `timeoutMs` in total, in any connection state (one deadline, handed
   * to each lock in turn; Curator gives each lock the whole time): true, or false with none
   * held. True only while every lock's hold is valid; when one went unproven while the later
   * ones were taken, all are given back and taken again. The multi-lock has no hold of its
   * own: check its locks' holds before a side effect.
   */
  acquire(timeoutMs: number | undefined, options?: AcquireOptions): Promise<boolean>;
  async acquire(timeoutMs?: number, options: AcquireOptions = {}): Promise<boolean> {
    const signal = checkAcquireArguments(timeoutMs, options);
    using deadline = Deadline.of({ timeoutMs, signal });
    // One deadline for the set: acquire(0) asks each lock at once; otherwise each waits on the
    // deadline's signal, which aborts with a TimeoutError when the time for all of them is up.
    const each: [number | undefined, AcquireOptions] =
      timeoutMs === 0 ? [0, { signal }] : [undefined, { signal: deadline.signal }];
    // acquire(0) keeps waiting for its releases' answers (each bounded, see releaseAll); a
    // deadline or an abort bounds the wait for them like the rest of the call.
    const cleanupSignal = timeoutMs === 0 ? signal : deadline.signal;
    // A lock the caller's flow holds already is re-entered, not granted here: its hold is as
    // old as the caller's, and judged there.
    const granted = this.#locks.filter(
      (lock) => !(lock instanceof ReentrantLock && lock.isOwnedByCurrentFlow()),
    );
    for (;;) {
      const acquired: InterProcessLock[] = [];
      try {
        for (const lock of this.#locks) {
          if (!(await lock.acquire(...each))) {
            await releaseQuietly(acquired, cleanupSignal);
            return false;
          }
          acquired.push(lock);
        }
      } catch (error) {
        await releaseQuietly(acquired, cleanupSignal);
        if (deadline.isExpiry(error)) return false;
        throw error;
      }
      // Each lock was granted valid, but the later ones took time: all of them, or none. One
      // that went unproven meanwhile (a loss, a stall) may be gone; taking it alone again
      // while holding the others would break the order that keeps multi-locks from
      // deadlocking, so all are given back and taken again while the time lasts.
      if (granted.every(holdsValidly)) return true;
      await releaseQuietly(acquired, cleanupSignal);
      if (timeoutMs === 0 || deadline.expired) return false;
    }
  }

  /**
   * Releases every lock, last first. Every lock is tried; failures are collected and thrown
   * together afterwards (an AggregateError when more than one).
   */
  async release(): Promise<void> {
    const errors = (await releaseAll(this.#locks))
      .filter((outcome) => outcome.status === 'rejected')
      .map((outcome) => outcome.reason as unknown);
    if (errors.length === 1) throw errors[0] as Error;
    if (errors.length > 1) throw new AggregateError(errors, 'releasing the multi-lock failed');
  }

  /** True when every lock is held by this process (Curator's choice too). */
  isAcquiredInThisProcess(): boolean {
    return this.#locks.every((lock) => lock.isAcquiredInThisProcess());
  }
}

/**
 * Whether `lock` holds and its hold is sound right now, as far as it can say: this package's
 * locks say through their hold or lease; a lock of another kind (a nested multi-lock too) is
 * taken at its acquire's word.
 */
function holdsValidly(lock: InterProcessLock): boolean {
  if (lock instanceof ReentrantLock) return lock.hold?.isValid() === true;
  if (lock instanceof InterProcessSemaphoreMutex) return lock.lease?.isValid() === true;
  return true;
}

/**
 * Releases `locks`, last first, all started at once (a release gives its lock up in this process
 * before it awaits anything). Each waits for its answer only while connected, about 1 s at most
 * on a link gone silent (a hung server, an unnoticed partition): awaited one after the other,
 * that would be 1 s per lock.
 */
function releaseAll(locks: readonly InterProcessLock[]): Promise<PromiseSettledResult<void>[]> {
  return Promise.allSettled([...locks].reverse().map(async (lock) => lock.release()));
}

/**
 * Gives back what a failed acquire took. The caller gets the acquire's own outcome, so failures
 * are dropped, and the answers are awaited only until `signal` aborts (the call's time is up or
 * its caller gave up): the releases have been made by then and their deletes go on alone.
 */
async function releaseQuietly(
  acquired: readonly InterProcessLock[],
  signal: AbortSignal | undefined,
): Promise<void> {
  if (acquired.length === 0) return;
  const released = releaseAll(acquired);
  if (signal?.aborted === true) return;
  await untilAborted(released, signal).catch(() => undefined);
}

// A multi-lock of nothing would "hold" at once; one of non-locks would fail mid-acquire.
function checkLocks(locks: readonly unknown[]): InterProcessLock[] {
  if (locks.length === 0) {
    throw new InvalidArgumentError('InterProcessMultiLock needs at least one lock');
  }
  for (const lock of locks) {
    const candidate = lock as Partial<InterProcessLock> | null;
    if (typeof candidate?.acquire !== 'function' || typeof candidate.release !== 'function') {
      throw new InvalidArgumentError(
        `InterProcessMultiLock takes locks (acquire/release); got ${describeValue(lock)}`,
      );
    }
  }
  return [...(locks as readonly InterProcessLock[])];
}

function mutexesOn(client: FrameworkClient, paths: unknown): InterProcessMutex[] {
  checkClient('InterProcessMultiLock', client);
  if (!Array.isArray(paths) || paths.length === 0) {
    throw new InvalidArgumentError(
      `InterProcessMultiLock needs a non-empty array of lock paths; got ${describeValue(paths)}`,
    );
  }
  const mutexes = (paths as unknown[]).map((path) => new InterProcessMutex(client, path as string));
  // Two mutexes on one path in one process: the second waits for the first, held by the same
  // acquire, so acquire() could only time out (or wait forever without a timeout).
  const seen = new Set<string>();
  for (const { path } of mutexes) {
    if (seen.has(path)) {
      throw new InvalidArgumentError(
        `InterProcessMultiLock got the path ${path} twice: its second mutex would wait for the first forever`,
      );
    }
    seen.add(path);
  }
  return mutexes;
}
