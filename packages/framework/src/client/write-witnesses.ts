import { Buffer } from 'node:buffer';
import { ensurePath } from './ensure-path.js';
import { isNodeExists, isNoNode } from '../errors/predicates.js';
import { joinPath } from '../paths/zk-paths.js';
import type { Acl } from '../zk/zookeeper-types.js';
import type { ZooKeeperOperations } from '../zk/zookeeper-operations.js';
import { onAbort } from '../async/on-abort.js';

/**
 * One witness: an ephemeral node of one session that an idempotent write carries in its own
 * transaction (a versioned setData of the witness next to the write). Only this session writes
 * it and only one write at a time, so after a lost reply the witness's version says whether that
 * write was applied: `version + 1`, it was; `version`, it was not.
 */
export interface WitnessSlot {
  readonly path: string;
  readonly sessionId: bigint;
  /** The version the next write through this slot expects. */
  version: number;
}

/** What {@link WriteWitnesses} needs from the client. */
export interface WriteWitnessDeps {
  readonly ops: ZooKeeperOperations;
  /** The folder of the witnesses (server path): each session's slots are ephemeral nodes in it. */
  readonly basePath: string;
  readonly aclFor: (path: string) => readonly Acl[];
  readonly currentSessionId: () => bigint | undefined;
  readonly parentMode: 'PERSISTENT' | 'CONTAINER';
  /** How many writes of one session can be in flight with a witness each. */
  readonly maxSlots: number;
}

const EMPTY = Buffer.alloc(0);

/**
 * The witness slots of the client's current session, made on first use (one create each) and
 * reused; a session change drops them (their nodes went with it). An idempotent write takes a
 * slot for all its attempts and gives it back once its outcome is known (see idempotent-write.ts
 * and docs/framework/operations.md, "when a reply is lost").
 */
export class WriteWitnesses {
  readonly #deps: WriteWitnessDeps;
  #sessionId: bigint | undefined;
  #free: WitnessSlot[] = [];
  #made = 0;
  #next = 0;
  /** The slot `warm()` is making, until it is made (or failed). */
  #warming: Promise<void> | undefined;
  /** Calls waiting for a slot to be released or discarded, or for a new session. */
  readonly #waiting: (() => void)[] = [];

  constructor(deps: WriteWitnessDeps) {
    this.#deps = deps;
  }

  /** A slot of the current session to itself; waits for one when all are in use. */
  async acquire(signal: AbortSignal | undefined): Promise<WitnessSlot> {
    for (;;) {
      let sessionId = this.#deps.currentSessionId();
      if (sessionId === undefined) {
        // Not connected yet: any request waits for the connection; then there is a session.
        await this.#deps.ops.exists('/', undefined, signal);
        sessionId = this.#deps.currentSessionId();
        if (sessionId === undefined) continue;
      }
      this.#follow(sessionId);
      const free = this.#free.pop();
      if (free !== undefined) return free;
      if (this.#warming !== undefined) {
        // A slot is on its way already: waiting for it is quicker than making another (its
        // release or discard wakes one waiter; the caller's signal bounds the wait).
        await this.#wake(signal);
        continue;
      }
      if (this.#made < this.#deps.maxSlots) {
        this.#made++;
        try {
          return await this.#make(sessionId, this.#next++, signal);
        } catch (error) {
          this.discard({ path: '', sessionId, version: 0 });
          throw error;
        }
      }
      await this.#wake(signal);
    }
  }

  /**
   * Makes a slot ahead of the first idempotent write of the session, in the background, so
   * that write costs one round trip, not two. Failures are left to that write to meet.
   */
  warm(): void {
    const sessionId = this.#deps.currentSessionId();
    if (sessionId === undefined) return;
    this.#follow(sessionId);
    if (this.#free.length > 0 || this.#made > 0) return;
    this.#made++;
    const warming: Promise<void> = this.#make(sessionId, this.#next++).then(
      (slot) => {
        if (this.#warming === warming) this.#warming = undefined;
        this.release(slot);
      },
      () => {
        if (this.#warming === warming) this.#warming = undefined;
        this.discard({ path: '', sessionId, version: 0 });
      },
    );
    this.#warming = warming;
  }

  /** Gives a slot back after its write's outcome is known. */
  release(slot: WitnessSlot): void {
    if (slot.sessionId !== this.#sessionId) return;
    this.#free.push(slot);
    this.#waiting.shift()?.();
  }

  /** Forgets a slot whose version can no longer be trusted (its node is gone). */
  discard(slot: WitnessSlot): void {
    if (slot.sessionId !== this.#sessionId) return;
    this.#made--;
    this.#waiting.shift()?.();
  }

  #follow(sessionId: bigint): void {
    if (sessionId === this.#sessionId) return;
    this.#sessionId = sessionId;
    this.#free = [];
    this.#made = 0;
    this.#warming = undefined;
    for (const wake of this.#waiting.splice(0)) wake();
  }

  async #make(sessionId: bigint, index: number, signal?: AbortSignal): Promise<WitnessSlot> {
    const { ops, basePath, aclFor, parentMode } = this.#deps;
    const path = joinPath(basePath, `${sessionId.toString(16)}-${index}`);
    for (let attempt = 0; ; attempt++) {
      try {
        await ops.create(path, EMPTY, aclFor(path), 'EPHEMERAL', signal);
        return { path, sessionId, version: 0 };
      } catch (error) {
        if (isNoNode(error) && attempt < 3) {
          await ensurePath(ops, basePath, aclFor, signal, parentMode);
          continue;
        }
        if (!isNodeExists(error)) throw error;
        // A create retried after a lost reply: ours if this session owns it.
        const stat = await ops.exists(path, undefined, signal);
        if (stat?.ephemeralOwner === sessionId) return { path, sessionId, version: stat.version };
        throw error;
      }
    }
  }

  #wake(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const wake = (): void => {
        stopListening?.();
        resolve();
      };
      const abort = (): void => {
        const index = this.#waiting.indexOf(wake);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(signal?.reason as Error);
      };
      if (signal?.aborted === true) {
        abort();
        return;
      }
      const stopListening = signal && onAbort(signal, abort);
      this.#waiting.push(wake);
    });
  }
}
