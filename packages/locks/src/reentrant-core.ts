// The state and the acquire/release path of every reentrant lock (InterProcessMutex and both
// halves of InterProcessReadWriteLock), in one final class that ReentrantLock holds rather than
// inherits. Why: V8 optimizes a method for the object shapes it has seen, and instances of
// different subclasses have different shapes. With this code on the subclasses, the first read
// lock in a process that had used mutexes threw away the optimized acquire and release paths,
// and recompiling them took tens of milliseconds of CPU each (measured with --trace-opt, see
// docs/benchmarks.md). Here every kind of lock runs the same object through the same code.
import type { FrameworkClient } from '@zkrecipes/framework';
import {
  assertClientStarted,
  untilFirstConnection,
  WakeWait,
} from '@zkrecipes/framework/recipe-support';
import { AcquireLimits } from './acquire-limits.js';
import { checkAcquireArguments } from './check-arguments.js';
import { currentFlow, findFlowHold, type FlowScope } from './flow-scope.js';
import { HoldValidity } from './hold-validity.js';
import { IllegalMonitorStateError } from './illegal-monitor-state-error.js';
import type { AcquireOptions } from './interprocess-lock.js';
import { Hold, HoldHandle, type MutexHold } from './lock-hold.js';
import {
  type AcquiredLock,
  LockInternals,
  type AttemptOptions,
  type LockInternalsConfig,
} from './lock-internals.js';
import { LockTelemetry } from './lock-telemetry.js';

/** @internal What a kind of lock adds to an attempt (see `ReentrantLock.prepareAttempt`). */
export type AttemptShape = Partial<Omit<AttemptOptions, 'limits'>>;

/**
 * @internal Reentrancy and hold bookkeeping over the lock-node queue. Holds belong to flows
 * (see `runInFlow`), keyed by this object; a hold taken outside any flow belongs to no flow in
 * particular: it is never re-entered, and any caller that does not hold the lock through a
 * flow may release it. See ReentrantLock for the contract of each method.
 */
export class ReentrantCore {
  readonly #client: FrameworkClient;
  readonly #internals: LockInternals;
  readonly #path: string;
  readonly #telemetry: LockTelemetry;
  /** The lock kind's `prepareAttempt`, called in the caller's flow before anything is sent. */
  readonly #prepareAttempt: (scope: FlowScope | undefined) => AttemptShape;
  /** Holds taken outside any flow, oldest first (a read lock may have several). */
  readonly #unscoped: Hold[] = [];
  #holdCount = 0;

  constructor(
    client: FrameworkClient,
    path: string,
    config: LockInternalsConfig,
    prepareAttempt: (scope: FlowScope | undefined) => AttemptShape,
  ) {
    this.#client = client;
    this.#path = path;
    this.#internals = new LockInternals(client, path, config);
    this.#telemetry = new LockTelemetry(client, config.component, path);
    this.#prepareAttempt = prepareAttempt;
  }

  /** The hold of the current flow (or a flow it was started from). */
  flowHold(): Hold | undefined {
    return findFlowHold<Hold>(this)?.hold;
  }

  /** How many holds were taken outside any flow. */
  get unscopedCount(): number {
    return this.#unscoped.length;
  }

  get holdCount(): number {
    return this.#holdCount;
  }

  /** The current flow's hold, else the newest hold taken outside any flow. */
  get hold(): Hold | undefined {
    return this.flowHold() ?? this.#unscoped.at(-1);
  }

  participantNodes(signal: AbortSignal | undefined): Promise<string[]> {
    return this.#internals.participantNodes(signal);
  }

  async acquireHold(
    timeoutMs: number | undefined,
    options: AcquireOptions,
  ): Promise<MutexHold | undefined> {
    const hold = await this.acquire(timeoutMs, options);
    return hold === undefined ? undefined : new HoldHandle(hold, () => this.#releaseHold(hold));
  }

  /**
   * The hold acquired within `timeoutMs`, or undefined when it ran out. One function from the
   * checks to the lock loop: every frame between acquire() and the socket is one more on each
   * request's stack (docs/benchmarks.md, request frames).
   */
  async acquire(timeoutMs: number | undefined, options: AcquireOptions): Promise<Hold | undefined> {
    const signal = checkAcquireArguments(timeoutMs, options);
    // The time limit counts from the client's first connection (see untilFirstConnection).
    const connecting = untilFirstConnection(this.#client, signal);
    if (connecting !== undefined) await connecting;
    using limits = AcquireLimits.of(this.#internals.connectionStream, timeoutMs, signal);
    const trace = this.#telemetry.acquireStarted(timeoutMs);
    try {
      limits.throwIfAborted();
      const scope = currentFlow();
      // Another acquire of this lock under way in this very flow: its outcome decides ours.
      const pending = scope?.pending.get(this);
      if (pending !== undefined) {
        if (limits.tryOnly) {
          trace.end('timed_out');
          return undefined;
        }
        // Woken however it ends: its outcome is its own caller's.
        const settled = new WakeWait();
        pending.then(settled.wake, settled.wake);
        await settled.wait({
          signal: limits.signal,
          closed: this.#internals.connectionStream.closedSignal,
          path: this.#internals.basePath,
        });
      }
      let hold: Hold | undefined;
      const owned = findFlowHold<Hold>(this, scope);
      if (owned !== undefined) {
        owned.hold.count++;
        hold = owned.hold;
      } else if (limits.tryOnly && !this.#client.isConnected) {
        // Not connected: nobody can know who holds it, and acquire(0) waits for nothing. A
        // client not started or closed is an error, as for every other call.
        assertClientStarted(this.#client, this.#internals.basePath);
      } else if (scope === undefined) {
        const attempt = { limits, ...this.#prepareAttempt(scope) };
        hold = this.#held(await this.#internals.attemptLock(attempt), scope);
      } else {
        const attempt = this.#attemptFor(scope, limits);
        scope.pending.set(this, attempt);
        try {
          hold = await attempt;
        } finally {
          if (scope.pending.get(this) === attempt) scope.pending.delete(this);
        }
      }
      trace.end(hold === undefined ? 'timed_out' : 'acquired');
      return hold;
    } catch (error) {
      const ranOut = limits.ranOut(error);
      trace.end(ranOut ? 'timed_out' : 'error', error);
      if (ranOut) return undefined;
      throw error;
    }
  }

  async #attemptFor(scope: FlowScope, limits: AcquireLimits): Promise<Hold | undefined> {
    return this.#held(
      await this.#internals.attemptLock({ limits, ...this.#prepareAttempt(scope) }),
      scope,
    );
  }

  /** The hold of what attemptLock acquired, counted and kept where release() finds it. */
  #held(acquired: AcquiredLock | undefined, scope: FlowScope | undefined): Hold | undefined {
    if (acquired === undefined) return undefined;
    const { path, fencingToken, epoch } = acquired;
    const hold = new Hold(
      this.#client,
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
}
