// Reentrancy and hold bookkeeping shared by InterProcessMutex and the two halves of
// InterProcessReadWriteLock (Curator's InterProcessMutex, whose subclasses they are there).
import {
  describeValue,
  type FrameworkClient,
  InvalidArgumentError,
  type Logger,
  validatePath,
} from '@zkrecipes/framework';
import { checkClient, WakeWait } from '@zkrecipes/framework/recipe-support';
import { AcquireLimits } from './acquire-limits.js';
import { checkAcquireArguments } from './check-arguments.js';
import { HoldValidity } from './hold-validity.js';
import { currentFlow, findFlowHold, runInFlow, type FlowScope } from './flow-scope.js';
import { IllegalMonitorStateError } from './illegal-monitor-state-error.js';
import { Hold, HoldHandle, type LockHold, type MutexHold } from './lock-hold.js';
import type { AcquireOptions, InterProcessLock } from './interprocess-lock.js';
import { LockInternals, type AttemptOptions, type LockInternalsConfig } from './lock-internals.js';
import { reportDeleteFailure } from './own-node.js';
import { LockTelemetry } from './lock-telemetry.js';

/** @internal What a kind of lock adds to an attempt (see `prepareAttempt`). */
export type AttemptShape = Partial<Omit<AttemptOptions, 'limits'>>;

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
    flowHoldOf = (lock) => findFlowHold<Hold>(lock)?.hold;
    unscopedHoldCount = (lock) => lock.#unscoped.length;
  }

  readonly #client: FrameworkClient;
  readonly #internals: LockInternals;
  readonly #logger: Logger;
  readonly #path: string;
  readonly #telemetry: LockTelemetry;
  /** Holds taken outside any flow, oldest first (a read lock may have several). */
  readonly #unscoped: Hold[] = [];
  #holdCount = 0;

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
    this.#internals = new LockInternals(client, path, config);
    this.#logger = client.logger.child({ component: config.component, path });
    this.#telemetry = new LockTelemetry(client, config.component, path);
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
    return (await this.#acquireWithin(timeoutMs, options)) !== undefined;
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
  async acquireHold(
    timeoutMs?: number,
    options: AcquireOptions = {},
  ): Promise<MutexHold | undefined> {
    const hold = await this.#acquireWithin(timeoutMs, options);
    return hold === undefined ? undefined : new HoldHandle(hold, () => this.#releaseHold(hold));
  }

  async #acquireWithin(
    timeoutMs: number | undefined,
    options: AcquireOptions,
  ): Promise<Hold | undefined> {
    const signal = checkAcquireArguments(timeoutMs, options);
    using limits = AcquireLimits.of(this.#internals.connectionStream, timeoutMs, signal);
    const trace = this.#telemetry.acquireStarted(timeoutMs);
    try {
      const hold = await this.#acquire(limits);
      trace.end(hold === undefined ? 'timed_out' : 'acquired');
      return hold;
    } catch (error) {
      const ranOut = limits.ranOut(error);
      trace.end(ranOut ? 'timed_out' : 'error', error);
      if (ranOut) return undefined;
      throw error;
    }
  }

  async #acquire(limits: AcquireLimits): Promise<Hold | undefined> {
    limits.throwIfAborted();
    const scope = currentFlow();
    // Another acquire of this lock under way in this very flow: its outcome decides ours.
    const pending = scope?.pending.get(this);
    if (pending !== undefined) {
      if (limits.tryOnly) return undefined;
      // Woken however it ends: its outcome is its own caller's.
      const settled = new WakeWait();
      pending.then(settled.wake, settled.wake);
      await settled.wait({
        signal: limits.signal,
        closed: this.#internals.connectionStream.closedSignal,
        path: this.#internals.basePath,
      });
    }
    const owned = findFlowHold<Hold>(this, scope);
    if (owned !== undefined) {
      owned.hold.count++;
      return owned.hold;
    }
    // Not connected: nobody can know who holds it, and acquire(0) waits for nothing.
    if (limits.tryOnly && !this.#client.isConnected) return undefined;
    const attempt = this.#attemptFor(scope, limits);
    if (scope === undefined) return attempt;
    scope.pending.set(this, attempt);
    try {
      return await attempt;
    } finally {
      if (scope.pending.get(this) === attempt) scope.pending.delete(this);
    }
  }

  /**
   * One release (Curator's `release()`): the lock is given back after as many releases as the
   * flow made acquires. Throws IllegalMonitorStateError when the caller does not hold it.
   */
  async release(): Promise<void> {
    const owned = findFlowHold<Hold>(this);
    let hold: Hold;
    if (owned !== undefined) {
      hold = owned.hold;
      if (--hold.count > 0) return;
      owned.scope.holds.delete(this);
    } else {
      const unscoped = this.#unscoped.shift();
      if (unscoped === undefined) {
        throw new IllegalMonitorStateError('you do not own the lock', { path: this.#path });
      }
      hold = unscoped;
    }
    await this.#giveBack(hold);
  }

  /** One release of `hold` itself (a MutexHold's), from whichever flow calls it. */
  async #releaseHold(hold: Hold): Promise<void> {
    if (hold.scope !== undefined) {
      if (hold.count === 0 || hold.scope.holds.get(this) !== hold) {
        throw new IllegalMonitorStateError('this hold was already released', {
          path: this.#path,
        });
      }
      if (--hold.count > 0) return;
      hold.scope.holds.delete(this);
    } else {
      const at = this.#unscoped.indexOf(hold);
      if (at < 0) {
        throw new IllegalMonitorStateError('this hold was already released', {
          path: this.#path,
        });
      }
      this.#unscoped.splice(at, 1);
    }
    await this.#giveBack(hold);
  }

  async #giveBack(hold: Hold): Promise<void> {
    hold.count = 0;
    this.#holdCount--;
    this.#telemetry.released(hold);
    hold.end();
    await this.#internals.releaseLock(hold.lockPath);
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
        return await fn(findFlowHold<Hold>(this)!.hold);
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
    return this.#holdCount > 0;
  }

  /** True when the current flow (or one it was started from) holds it: Curator's `isOwnedByCurrentThread`. */
  isOwnedByCurrentFlow(): boolean {
    return findFlowHold(this) !== undefined;
  }

  /**
   * The caller's hold: the current flow's, else the newest hold taken outside any flow;
   * undefined when neither exists.
   */
  get hold(): LockHold | undefined {
    return findFlowHold<Hold>(this)?.hold ?? this.#unscoped.at(-1);
  }

  /** The caller's lock node (Curator's `getLockPath()`), or undefined. */
  getLockPath(): string | undefined {
    return this.hold?.lockPath;
  }

  /** The full paths of everyone holding or queued, in lock order (Curator's `getParticipantNodes`). */
  getParticipantNodes(): Promise<string[]> {
    return this.#internals.participantNodes();
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

  async #attemptFor(
    scope: FlowScope | undefined,
    limits: AcquireLimits,
  ): Promise<Hold | undefined> {
    const acquired = await this.#internals.attemptLock({
      limits,
      ...this.prepareAttempt(scope),
    });
    if (acquired === undefined) return undefined;
    const { path, fencingToken, epoch } = acquired;
    const hold = new Hold(
      path,
      fencingToken,
      new HoldValidity(this.#internals.connectionStream, epoch, path),
      scope,
    );
    this.#telemetry.held(hold, () => hold.lost);
    if (scope === undefined) this.#unscoped.push(hold);
    else scope.holds.set(this, hold);
    this.#holdCount++;
    return hold;
  }
}
