// The public face of InterProcessMutex and the two halves of InterProcessReadWriteLock
// (Curator's InterProcessMutex, whose subclasses they are there). The work is ReentrantCore's,
// held rather than inherited so that every kind of lock runs one object shape through it.
import {
  type FrameworkClient,
  InvalidArgumentError,
  type Logger,
  type SignalOptions,
  validatePath,
} from '@zkrecipes/framework';
import {
  checkClient,
  checkSignalOptions,
  describeValue,
} from '@zkrecipes/framework/recipe-support';
import { runInFlow, type FlowScope } from './flow-scope.js';
import type { LockHold, MutexHold } from './lock-hold.js';
import type { AcquireOptions, InterProcessLock } from './interprocess-lock.js';
import type { LockInternalsConfig } from './lock-internals.js';
import { reportDeleteFailure } from './own-node.js';
import { ReentrantCore, type AttemptShape } from './reentrant-core.js';
import { Revocable } from './revocable.js';
import type { RevocationListener } from './revocation-watch.js';

export type { AttemptShape } from './reentrant-core.js';

/**
 * @internal The hold of `lock` in the current flow, for the read/write lock's up- and downgrade
 * rules (set by ReentrantLock's static block, which can see its private state).
 */
export let flowHoldOf: (lock: ReentrantLock) => LockHold | undefined;

/** @internal How many holds of `lock` were taken outside any flow (the downgrade check). */
export let unscopedHoldCount: (lock: ReentrantLock) => number;

/**
 * A reentrant lock over the lock-node queue (the internal `LockInternals`). Holds belong to
 * flows (see `runInFlow`); a hold taken outside any flow belongs to no flow in particular: it is
 * never re-entered, and any caller that does not hold the lock through a flow may release it.
 */
export abstract class ReentrantLock implements InterProcessLock {
  static {
    flowHoldOf = (lock) => lock.#core.flowHold();
    unscopedHoldCount = (lock) => lock.#core.unscopedCount;
  }

  readonly #client: FrameworkClient;
  readonly #core: ReentrantCore;
  readonly #logger: Logger;
  readonly #path: string;
  readonly #revocable: Revocable;

  /**
   * For the lock classes of this package only: use {@link InterProcessMutex} or the halves of
   * {@link InterProcessReadWriteLock}.
   *
   * @internal
   */
  protected constructor(client: FrameworkClient, path: string, config: LockInternalsConfig) {
    checkClient(new.target.name, client);
    validatePath(path);
    this.#client = client;
    this.#path = path;
    this.#revocable = new Revocable(client, this);
    this.#core = new ReentrantCore(client, path, config, (scope) =>
      this.#revocable.shape(this.prepareAttempt(scope)),
    );
    this.#logger = client.logger.child({ component: config.component, path });
  }

  /** The lock's path, as given. */
  get path(): string {
    return this.#path;
  }

  /**
   * Waits for the lock (Curator's `acquire()`); resolves true. Reentrant inside a flow.
   * Rejects with `signal.reason` when aborted, ClosedError when the client closes.
   */
  acquire(timeoutMs?: undefined, options?: AcquireOptions): Promise<true>;
  /**
   * Waits at most `timeoutMs` (Curator's `acquire(time, unit)`) in any connection state: true
   * when acquired, false when the time ran out. `acquire(0)` never waits: when anyone holds or
   * queues for the lock it answers false with a single read and leaves no node and no watch
   * behind; when the client is not connected it answers false without sending anything.
   */
  acquire(timeoutMs: number | undefined, options?: AcquireOptions): Promise<boolean>;
  async acquire(timeoutMs?: number, options: AcquireOptions = {}): Promise<boolean> {
    return (await this.#core.acquire(timeoutMs, options)) !== undefined;
  }

  /**
   * `acquire` that resolves the hold instead of a boolean: the hold when acquired, undefined
   * when `timeoutMs` ran out (the same timeout, signal and reentrancy rules as `acquire`). The
   * hold is released by its own `release()`, or by `await using` at the end of a block:
   *
   * ```ts
   * await using hold = await mutex.acquireHold(0); // undefined: someone else has it
   * if (hold !== undefined) await publish(report, { fencingToken: hold.fencingTokenString });
   * ```
   */
  acquireHold(timeoutMs?: undefined, options?: AcquireOptions): Promise<MutexHold>;
  /** See the first signature: undefined when `timeoutMs` ran out. */
  acquireHold(
    timeoutMs: number | undefined,
    options?: AcquireOptions,
  ): Promise<MutexHold | undefined>;
  acquireHold(timeoutMs?: number, options: AcquireOptions = {}): Promise<MutexHold | undefined> {
    return this.#core.acquireHold(timeoutMs, options);
  }

  /**
   * One release (Curator's `release()`): the lock is given back after as many releases as the
   * flow made acquires. Throws IllegalMonitorStateError when the caller does not hold it. The
   * release that gives the lock back also clears {@link makeRevocable} and stops watching for
   * revocation, as Curator's does.
   */
  release(): Promise<void> {
    const released = this.#core.release();
    // A lock never made revocable returns the core's promise as is: no extra await per release.
    if (!this.#revocable.active) return released;
    return released.then(() => {
      if (this.#core.holdCount === 0) this.#revocable.clear();
    });
  }

  /**
   * Makes the next acquire revocable (Curator's `makeRevocable`, which its read and write locks
   * have too): its lock node starts with empty data and is watched, and when someone writes
   * `__REVOKE__` into it (`Revoker.attemptRevoke`, or Curator's from Java) `listener` is
   * called with this lock. Revocation is cooperative: the listener should see that the holder
   * releases soon.
   *
   * As in Curator, it applies to acquires that start after this call, and the release that
   * gives the lock back clears it: call it again before each acquire that should be revocable.
   *
   * @example
   * mutex.makeRevocable(() => abortWork.abort('revoked'));
   * await mutex.acquire();
   */
  makeRevocable(listener: RevocationListener<this>): void {
    this.#revocable.set(listener);
  }

  /**
   * Runs `fn` holding the lock, in a flow of its own (so nested acquires in `fn` are
   * reentrant and concurrent `withLock` calls exclude each other), and releases it afterwards,
   * whatever `fn` does. `fn` gets the hold (fencing token, lost signal, validity).
   *
   * Resolves with what `fn` returns once `fn` completed, even when the release fails: an
   * outage hands the delete to the background (guaranteed; the ephemeral node also ends with
   * its session), and any other release failure goes to `client.unhandledErrors`. When `fn`
   * throws, its error is what `withLock` rejects with.
   *
   * @example
   * await mutex.withLock(async (hold) => {
   *   const record = await prepare();
   *   await store.write(record, { fencingToken: hold.fencingToken, signal: hold.lost });
   * });
   */
  withLock<T>(fn: (hold: LockHold) => T | Promise<T>, options: AcquireOptions = {}): Promise<T> {
    // Checked first: a mistake must not take (and give back) the lock.
    if (typeof fn !== 'function') {
      return Promise.reject(
        new InvalidArgumentError(`withLock takes a function; got ${describeValue(fn)}`),
      );
    }
    return runInFlow(async () => {
      await this.acquire(undefined, options);
      try {
        return await fn(this.#core.flowHold()!);
      } finally {
        await this.release().catch((error: unknown) =>
          reportDeleteFailure(
            this.#client,
            this.#logger,
            error,
            `withLock releasing ${this.#path}`,
          ),
        );
      }
    });
  }

  /** True while any flow of this process holds the lock through this object. */
  isAcquiredInThisProcess(): boolean {
    return this.#core.holdCount > 0;
  }

  /** True when the current flow (or one it was started from) holds it: Curator's `isOwnedByCurrentThread`. */
  isOwnedByCurrentFlow(): boolean {
    return this.#core.flowHold() !== undefined;
  }

  /**
   * The caller's hold: the current flow's, else the newest hold taken outside any flow;
   * undefined when neither exists.
   */
  get hold(): LockHold | undefined {
    return this.#core.hold;
  }

  /**
   * Calls `listener` with the reason the caller's hold's `lost` signal aborts with (at once when
   * it already has), without making that signal; undefined when the caller holds nothing. For
   * a recipe built on the lock that forwards the loss somewhere of its own.
   *
   * @internal
   */
  protected onHoldLost(listener: (reason: Error) => void): (() => void) | undefined {
    return this.#core.hold?.onLost(listener);
  }

  /** The caller's lock node (Curator's `getLockPath()`), or undefined. */
  getLockPath(): string | undefined {
    return this.hold?.lockPath;
  }

  /**
   * The full paths of everyone holding or queued, in lock order (Curator's
   * `getParticipantNodes`). Aborting `signal` rejects with its reason at once, in any connection
   * state (the read is given it).
   */
  async getParticipantNodes(options: SignalOptions = {}): Promise<string[]> {
    return this.#core.participantNodes(checkSignalOptions(options));
  }

  /**
   * What this kind of lock adds to an attempt, decided in the caller's flow before anything is
   * sent (the read lock's downgrade; the write lock refuses an upgrade here).
   *
   * @internal
   */
  protected prepareAttempt(_scope: FlowScope | undefined): AttemptShape {
    return {};
  }
}
