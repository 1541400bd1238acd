// Reentrancy and hold bookkeeping shared by InterProcessMutex and the two halves of
// InterProcessReadWriteLock (Curator's InterProcessMutex, whose subclasses they are there).
import {
  describeValue,
  type FrameworkClient,
  InvalidArgumentError,
  type Logger,
  validatePath,
} from '@zkrecipes/framework';
import { checkClient } from '@zkrecipes/framework/recipe-support';
import { AcquireLimits } from './acquire-limits.js';
import { checkAcquireArguments } from './check-arguments.js';
import { HoldValidity } from './connection-watch.js';
import { currentFlow, findFlowHold, runInFlow, type FlowScope } from './flow-scope.js';
import { IllegalMonitorStateError } from './illegal-monitor-state-error.js';
import type { AcquireOptions, InterProcessLock } from './interprocess-lock.js';
import { LockInternals, type AttemptOptions, type LockInternalsConfig } from './lock-internals.js';
import { reportDeleteFailure } from './own-node.js';
import { waitForWake } from './wait-for-wake.js';
import { LockTelemetry, type HoldTrace } from './lock-telemetry.js';

/** A held lock, as the flow holding it sees it. */
export interface LockHold {
  /** Our lock node (namespace-relative), e.g. `/app/lock/_c_<uuid>-lock-0000000007`. */
  readonly lockPath: string;
  /**
   * Strictly greater than the token of every earlier holder of this lock path, also across a
   * delete and re-create of the lock's parent. Pass it to the resource you protect and let it
   * refuse writes carrying a smaller token than it has seen: that stops a holder who lost the
   * lock without knowing (a long pause, a partition) from doing damage.
   *
   * It is our lock node's czxid (from the create's reply), the number `zkrecipes inspect` and a
   * Java service reading the node's Stat see. Lock order is sequence order, which is creation
   * order, and zxids are global: so each holder's node was created after every earlier
   * holder's. Read locks are ordered against writers; overlapping readers have distinct,
   * unordered tokens. A read lock taken by the write holder keeps the write hold's token.
   */
  readonly fencingToken: bigint;
  /**
   * Aborts when the client's error policy says the hold may be gone: SUSPENDED or LOST under
   * 'standard', LOST only under 'session'; and when the client closes. Pass it to the work done
   * under the lock. It does not abort on `release()`.
   */
  readonly lost: AbortSignal;
  /**
   * Until when (a `performance.now()` instant) the hold is known to be sound: the client's
   * `validUntilMs`, or -Infinity once `lost` would abort or after the hold was released.
   * Computed when read: right after a long event-loop stall it is already in the past.
   */
  readonly validUntil: number;
  /**
   * `performance.now() < validUntil`: whether the hold may still act. Check it right before
   * each side effect (no await in between), or pass the fencing token along.
   */
  isValid(): boolean;
}

class Hold implements LockHold {
  readonly lockPath: string;
  readonly fencingToken: bigint;
  readonly #validity: HoldValidity;
  count = 1;
  trace: HoldTrace | undefined;

  constructor(lockPath: string, fencingToken: bigint, validity: HoldValidity) {
    this.lockPath = lockPath;
    this.fencingToken = fencingToken;
    this.#validity = validity;
  }

  get lost(): AbortSignal {
    return this.#validity.signal;
  }

  get validUntil(): number {
    return this.#validity.validUntil;
  }

  isValid(): boolean {
    return this.#validity.isValid();
  }

  end(): void {
    this.#validity.end();
  }
}

/** @internal What a kind of lock adds to an attempt (see `prepareAttempt`). */
export type AttemptShape = Partial<Omit<AttemptOptions, 'limits'>>;

/**
 * @internal The hold of `lock` in the current flow, for the read/write lock's up- and downgrade
 * rules (set by ReentrantLock's static block, which can see its private state).
 */
export let flowHoldOf: (lock: ReentrantLock) => LockHold | undefined;

/**
 * A reentrant lock over the lock-node queue (the internal `LockInternals`). Holds belong to
 * flows (see `runInFlow`); a hold taken outside any flow belongs to no flow in particular: it is
 * never re-entered, and any caller that does not hold the lock through a flow may release it.
 */
export abstract class ReentrantLock implements InterProcessLock {
  static {
    flowHoldOf = (lock) => findFlowHold<Hold>(lock)?.hold;
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
    const signal = checkAcquireArguments(timeoutMs, options);
    using limits = AcquireLimits.of(this.#internals.connectionWatch, timeoutMs, signal);
    const trace = this.#telemetry.acquireStarted(timeoutMs);
    try {
      const acquired = await this.#acquire(limits);
      trace.end(acquired ? 'acquired' : 'timed_out');
      return acquired;
    } catch (error) {
      const ranOut = limits.ranOut(error);
      trace.end(ranOut ? 'timed_out' : 'error', error);
      if (ranOut) return false;
      throw error;
    }
  }

  async #acquire(limits: AcquireLimits): Promise<boolean> {
    limits.throwIfAborted();
    const scope = currentFlow();
    // Another acquire of this lock under way in this very flow: its outcome decides ours.
    const pending = scope?.pending.get(this);
    if (pending !== undefined) {
      if (limits.tryOnly) return false;
      await waitForWake(pending, {
        signal: limits.signal,
        closed: this.#internals.connectionWatch.closedSignal,
      });
    }
    const owned = findFlowHold<Hold>(this, scope);
    if (owned !== undefined) {
      owned.hold.count++;
      return true;
    }
    // Not connected: nobody can know who holds it, and acquire(0) waits for nothing.
    if (limits.tryOnly && !this.#client.isConnected) return false;
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
    this.#holdCount--;
    if (hold.trace !== undefined) this.#telemetry.released(hold.trace);
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

  async #attemptFor(scope: FlowScope | undefined, limits: AcquireLimits): Promise<boolean> {
    const acquired = await this.#internals.attemptLock({
      limits,
      ...this.prepareAttempt(scope),
    });
    if (acquired === undefined) return false;
    const { path, fencingToken, epoch } = acquired;
    const hold = new Hold(
      path,
      fencingToken,
      new HoldValidity(this.#internals.connectionWatch, epoch, path),
    );
    hold.trace = this.#telemetry.held(() => hold.lost);
    if (scope === undefined) this.#unscoped.push(hold);
    else scope.holds.set(this, hold);
    this.#holdCount++;
    return true;
  }
}
