import { randomUUID } from 'node:crypto';
import {
  type FrameworkClient,
  InvalidArgumentError,
  isNodeExists,
  isOutcomeUnknown,
  isNoNode,
  joinPath,
  NoNodeError,
  SessionExpiredError,
  validatePath,
} from '@zkrecipes/framework';
import {
  CallLimits,
  checkClient,
  deleteOwnNode,
  reportRecipeFailure,
  TIMED_OUT,
  connectionStreamOf,
  waitForWake,
  Wake,
  watchSignal,
  checkWaitOptions,
  untilFirstConnection,
} from '@zkrecipes/framework/recipe-support';
import { READY_NODE, sortedMembers } from './barrier-members.js';
import type { WaitOptions } from './wait-options.js';

/** Where a {@link DistributedDoubleBarrier} object is in its enter/leave cycle. */
export type DoubleBarrierPhase = 'IDLE' | 'ENTERING' | 'ENTERED' | 'LEAVING';

/**
 * A double barrier (Curator's `DistributedDoubleBarrier`): members {@link enter} and wait until
 * `memberQty` of them are in, do their work, then {@link leave} and wait until all of them are
 * out. `memberQty` is a threshold, not a limit: more members may enter.
 *
 * ```ts
 * const barrier = new DistributedDoubleBarrier(client, '/app/batch-42', 5);
 * await barrier.enter();   // returns once 5 members have entered
 * await doWork();
 * await barrier.leave();   // returns once every member that entered has left
 * ```
 *
 * Same nodes as Curator, so Java and Node members can share a barrier: each member is an
 * ephemeral node named by a random UUID, and the member that sees the threshold reached creates
 * a persistent `ready` node that releases the others. On leave, the member whose node sorts
 * lowest leaves last; the others delete their node and wait for the lowest one to go.
 *
 * Differences from Curator 5.4, all on the safe side: a member returns from enter() only on
 * proof that the barrier filled (the `ready` node was created or is there), never on any other
 * wake-up; a member whose enter() times out or is aborted removes its node, so it is not counted;
 * and a session lost while waiting rejects with SessionExpiredError (the member's node is gone).
 * One object can go through several enter/leave cycles (each enter() under a new member name);
 * a barrier path can be reused once every member of the previous round has returned from leave().
 *
 * Every call ends on time with the server unreachable: with `timeoutMs` it resolves `false`
 * when the time runs out, a `signal` rejects with its reason, and a call with neither waits for
 * the connection until the client closes (ClosedError). A member node to remove then is
 * removed in the background once the connection is back (or goes with the session).
 */
export class DistributedDoubleBarrier {
  readonly #client: FrameworkClient;
  readonly #path: string;
  readonly #memberQty: number;
  // A new name per enter(): a removal of the previous one still queued for when the connection
  // is back must not hit this one.
  #ourName = randomUUID();
  #ourPath: string;
  readonly #readyPath: string;
  #phase: DoubleBarrierPhase = 'IDLE';
  #ourNodeExists = false;
  #membershipLost = false;
  #sessionId: bigint | undefined;

  constructor(client: FrameworkClient, barrierPath: string, memberQty: number) {
    checkClient('DistributedDoubleBarrier', client);
    validatePath(barrierPath, { allowRoot: false });
    if (typeof memberQty !== 'number' || !Number.isSafeInteger(memberQty) || memberQty < 1) {
      throw new InvalidArgumentError(
        `memberQty must be a whole number >= 1 (the number of members that fills the barrier); got ${String(memberQty)}`,
      );
    }
    this.#client = client;
    this.#path = barrierPath;
    this.#memberQty = memberQty;
    this.#ourPath = joinPath(barrierPath, this.#ourName);
    this.#readyPath = joinPath(barrierPath, READY_NODE);
  }

  /** The barrier's path. */
  get path(): string {
    return this.#path;
  }

  /** This member's node (a UUID below the barrier path, new at each enter()). */
  get memberPath(): string {
    return this.#ourPath;
  }

  /** Where this member is: IDLE (before enter or after leave), ENTERING, ENTERED or LEAVING. */
  get phase(): DoubleBarrierPhase {
    return this.#phase;
  }

  /**
   * Enters the barrier and waits until `memberQty` members have entered. Resolves `true` then,
   * `false` when `timeoutMs` passes first, whatever the connection does (this member's node is
   * removed again); `timeoutMs: 0` looks once, and only on a live connection. Rejects with the
   * signal's reason on abort (node removed too), with ClosedError when the client closes, and
   * with SessionExpiredError when the session ends while waiting.
   */
  async enter(options: WaitOptions = {}): Promise<boolean> {
    checkWaitOptions(options);
    if (this.#phase !== 'IDLE') {
      throw new InvalidArgumentError(
        `enter() while ${this.#phase}: call leave() first (one object is one member)`,
        { path: this.#path },
      );
    }
    options.signal?.throwIfAborted();
    this.#phase = 'ENTERING';
    this.#membershipLost = false;
    this.#ourName = randomUUID();
    this.#ourPath = joinPath(this.#path, this.#ourName);
    try {
      // The time limit counts from the client's first connection (see untilFirstConnection).
      const connecting = untilFirstConnection(this.#client, options.signal);
      if (connecting !== undefined) await connecting;
      using limits = CallLimits.of(this.#client, options.timeoutMs, options.signal);
      const entered = await this.#enter(limits);
      this.#phase = entered ? 'ENTERED' : 'IDLE';
      return entered;
    } catch (error) {
      this.#phase = 'IDLE';
      throw error;
    }
  }

  /**
   * Leaves the barrier and waits until every member has left. Resolves `true` then, `false`
   * when `timeoutMs` passes first, whatever the connection does; rejects with the signal's
   * reason on abort, with ClosedError when the client closes, and with SessionExpiredError when
   * this member's node vanished with its session. After `false` or a rejection other than SessionExpiredError this member is
   * still leaving (phase ENTERED): call leave() again to finish.
   */
  async leave(options: WaitOptions = {}): Promise<boolean> {
    checkWaitOptions(options);
    if (this.#phase !== 'ENTERED') {
      throw new InvalidArgumentError(
        `leave() while ${this.#phase}: only a member whose enter() resolved true can leave`,
        { path: this.#path },
      );
    }
    options.signal?.throwIfAborted();
    this.#phase = 'LEAVING';
    using limits = CallLimits.of(this.#client, options.timeoutMs, options.signal);
    try {
      const left = await this.#leave(limits);
      this.#phase = left ? 'IDLE' : 'ENTERED';
      return left;
    } catch (error) {
      // Still a member (call leave() again) unless its node went with its session.
      this.#phase = this.#membershipLost ? 'IDLE' : 'ENTERED';
      throw error;
    }
  }

  async #enter(limits: CallLimits | undefined): Promise<boolean> {
    const client = this.#client;
    const signal = limits?.signal;
    let wake = new Wake();
    try {
      // One round trip: the three requests go out together and the server answers them in
      // order. Only the listing depends on the create; it is checked below.
      const checking = client.exists(this.#readyPath, {
        watch: wake.watch,
        signal: watchSignal(wake, signal),
      });
      const creating = client.create(this.#ourPath, {
        mode: 'EPHEMERAL',
        createParents: true,
        signal,
      });
      // From here the node may exist (a create cut off in flight): every way out removes it.
      this.#ourNodeExists = true;
      const [ready, created, listed] = await Promise.allSettled([
        checking,
        creating,
        client.getChildren(this.#path, { signal }),
      ]);
      // The node exists (OutcomeUnknownError after a lost reply): the first attempt went
      // through, for the UUID in its name is ours.
      const mine = (error: unknown): boolean =>
        isNodeExists(error) || isOutcomeUnknown(error, 'NODE_EXISTS');
      if (created.status === 'rejected' && !mine(created.reason)) throw created.reason;
      this.#sessionId = client.sessionId;
      if (ready.status === 'rejected') throw ready.reason;
      if (ready.value !== null) return true;
      if (listed.status === 'rejected' && !isNoNode(listed.reason)) throw listed.reason;
      let children = listed.status === 'fulfilled' ? listed.value : undefined;
      // A listing without our own node was answered before our create (the parent was still
      // missing, or the requests overtook each other): only a later listing counts.
      if (children === undefined || !children.includes(this.#ourName)) {
        children = await client.getChildren(this.#path, { signal });
      }
      if (sortedMembers(children).length >= this.#memberQty) {
        await this.#createReady(signal);
        return true;
      }
      for (;;) {
        const woken = await waitForWake(wake.event, {
          deadline: limits?.atMs,
          signal: limits?.callerSignal,
          closed: connectionStreamOf(client).closedSignal,
          path: this.#path,
        });
        if (woken === TIMED_OUT) {
          await this.#withdraw(signal);
          return false;
        }
        // `ready` appeared after our check: someone counted memberQty members.
        if (woken.type === 'NODE_CREATED') return true;
        if (woken.type === 'SESSION_EXPIRED') throw this.#sessionGone(true);
        // Any other wake-up proves nothing: look again.
        wake.cancel();
        wake = new Wake();
        const [stat, now] = await Promise.all([
          client.exists(this.#readyPath, { watch: wake.watch, signal: watchSignal(wake, signal) }),
          client.getChildren(this.#path, { signal }),
        ]);
        if (stat !== null) return true;
        if (sortedMembers(now).length >= this.#memberQty) {
          await this.#createReady(signal);
          return true;
        }
      }
    } catch (error) {
      await this.#withdraw(signal).catch(() => undefined);
      if (limits?.ranOut(error) === true) return false;
      throw error;
    } finally {
      wake.cancel();
    }
  }

  async #leave(limits: CallLimits | undefined): Promise<boolean> {
    const client = this.#client;
    const signal = limits?.signal;
    // Everyone watches the first listing; only the lowest member waits on that watch.
    let watchChildren = true;
    try {
      for (;;) {
        const wake = new Wake();
        try {
          let children: string[];
          try {
            children = await client.getChildren(
              this.#path,
              watchChildren ? { watch: wake.watch, signal: watchSignal(wake, signal) } : { signal },
            );
          } catch (error) {
            if (!isNoNode(error)) throw error;
            children = [];
          }
          const members = sortedMembers(children);
          const ourIndex = members.indexOf(this.#ourName);
          if (ourIndex < 0 && this.#ourNodeExists) throw this.#sessionGone(false);
          if (members.length === 0) {
            // Everyone is out. Our lowest member took `ready` away before its own node, so the
            // listing shows it only when the lowest went otherwise (its session ended) or did
            // it after its node (Curator's order): then it is ours to delete, and waited for,
            // so that nobody returns while `ready` could still let the next round's enter()
            // through.
            if (children.includes(READY_NODE)) {
              await client.delete(this.#readyPath, { quietly: true, signal });
            }
            return true;
          }
          // (Curator also returns when one node is left and ours is already gone; but that node
          // is a member still working, so this member waits for it like for any lowest one.)
          if (members.length === 1 && ourIndex === 0) {
            // Only our node is left: the lowest member leaves last, and takes `ready` with it,
            // first, in the same round trip: the others are told of our node's deletion, and
            // by then `ready` is gone too, so they need not delete it themselves.
            await Promise.all([
              client.delete(this.#readyPath, { quietly: true, signal }),
              this.#removeOwnNode(signal),
            ]);
            return true;
          }
          let event: Promise<unknown> = wake.event;
          let other: Wake | undefined;
          if (ourIndex !== 0) {
            // Not the lowest: drop our node and wait for the lowest one to go.
            wake.cancel();
            other = new Wake();
            const lowest = joinPath(this.#path, members[0]!);
            const [stat] = await Promise.all([
              client.exists(lowest, { watch: other.watch, signal: watchSignal(other, signal) }),
              this.#ourNodeExists ? this.#removeOwnNode(signal) : undefined,
            ]);
            watchChildren = false;
            if (stat === null) continue;
            event = other.event;
          } else {
            watchChildren = true;
          }
          try {
            const woken = await waitForWake(event, {
              deadline: limits?.atMs,
              signal: limits?.callerSignal,
              closed: connectionStreamOf(client).closedSignal,
              path: this.#path,
            });
            if (woken === TIMED_OUT) return false;
          } finally {
            other?.cancel();
          }
        } finally {
          wake.cancel();
        }
      }
    } catch (error) {
      if (limits?.ranOut(error) === true) return false;
      throw error;
    }
  }

  async #createReady(signal: AbortSignal | undefined): Promise<void> {
    try {
      await this.#client.create(this.#readyPath, { signal });
    } catch (error) {
      if (!isNodeExists(error) && !isOutcomeUnknown(error, 'NODE_EXISTS')) throw error;
    }
  }

  /** Takes this member's node back (enter gave up), so it is not counted. */
  async #withdraw(signal: AbortSignal | undefined): Promise<void> {
    if (this.#ourNodeExists) await this.#removeOwnNode(signal);
  }

  /**
   * Deletes this member's node. On a live connection the delete goes out at once (so this
   * client's next request sees it done) and its answer is awaited until `signal` aborts (not at
   * all once it has: the call's time is over); without a connection it goes on in the
   * background. A failure after the call gave up is reported on the client's unhandled errors.
   */
  async #removeOwnNode(signal: AbortSignal | undefined): Promise<void> {
    this.#ourNodeExists = false;
    const path = this.#ourPath;
    const removing = deleteOwnNode(this.#client, path);
    if (signal === undefined) return removing;
    const reported = removing.catch((error: unknown) =>
      reportRecipeFailure(this.#client, undefined, error, `removing ${path}`),
    );
    if (signal.aborted) return;
    await waitForWake(reported, {
      signal,
      closed: connectionStreamOf(this.#client).closedSignal,
      path,
    }).catch(() => undefined);
  }

  /** `expired`: a watch reported the session's end (the client may not have a new one yet). */
  #sessionGone(expired: boolean): Error {
    this.#ourNodeExists = false;
    this.#membershipLost = true;
    if (expired || this.#client.sessionId !== this.#sessionId) {
      return new SessionExpiredError({
        path: this.#ourPath,
        detail: "this member's node is gone: the session that created it ended",
      });
    }
    return new NoNodeError({
      path: this.#ourPath,
      detail: "this member's node was deleted by someone else (others must not write here)",
    });
  }
}
