// What a flow holding a reentrant lock sees of its hold, and the handle acquireHold() returns.
import {
  HoldLostError,
  type FrameworkClient,
  type TransactionOp,
  type TransactionOptions,
  type TransactionResult,
} from '@zkrecipes/framework';
import { guardedTransaction } from '@zkrecipes/framework/recipe-support';
import type { HoldValidity } from './hold-validity.js';
import type { FlowScope } from './flow-scope.js';

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
   * {@link fencingToken} in decimal, for JSON, headers and logs (a bigint has no JSON form:
   * `JSON.stringify` throws on one). `BigInt(hold.fencingTokenString)` gives the token back.
   */
  readonly fencingTokenString: string;
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
  /**
   * A write that lands only while this hold does: runs `ops` (built with the framework's `op`)
   * in one ZooKeeper transaction with a check that our lock node still exists, so a holder
   * that lost the lock without knowing cannot write through it. Resolves the results of `ops`
   * (the check's own result is left out). Rejects with HoldLostError (`isHoldLost`) when the
   * node is gone (nothing was written), or at once, sending nothing, after `release()` or once
   * `lost` would abort; other failures as `client.transaction` (TransactionFailedError indexed
   * as `ops` were given). `idempotent` defaults to true: a lost reply is answered exactly.
   */
  transaction(
    ops: readonly TransactionOp[],
    options?: TransactionOptions,
  ): Promise<TransactionResult[]>;
  /**
   * What `JSON.stringify(hold)` writes: the lock node and the fencing token as a decimal
   * string, e.g. `{"lockPath":"/app/lock/_c_…-lock-0000000007","fencingToken":"4294967302"}`.
   */
  toJSON(): LockHoldJson;
}

/** The JSON form of a {@link LockHold}. */
export interface LockHoldJson {
  /** {@link LockHold.lockPath}. */
  readonly lockPath: string;
  /** {@link LockHold.fencingToken} in decimal. */
  readonly fencingToken: string;
}

/**
 * One successful `acquireHold()`: the hold, and the one `release()` that matches this
 * acquire. `await using hold = await mutex.acquireHold(timeoutMs)` releases it at the end of
 * the block (and does nothing when the acquire timed out: `await using` skips `undefined`).
 */
export interface MutexHold extends LockHold, AsyncDisposable {
  /**
   * The release matching this acquire (within a flow, the lock is given back after as many
   * releases as acquires, as with `lock.release()`). Calling it again returns the first call's
   * outcome; it releases nothing more.
   */
  release(): Promise<void>;
  /** Calls {@link release}. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** @internal A hold as the lock keeps it: counted per flow, its validity, its flow. */
export class Hold implements LockHold {
  readonly lockPath: string;
  readonly fencingToken: bigint;
  /** The flow holding it; undefined for a hold taken outside any flow. */
  readonly scope: FlowScope | undefined;
  readonly #client: FrameworkClient;
  readonly #validity: HoldValidity;
  count = 1;

  constructor(
    client: FrameworkClient,
    lockPath: string,
    fencingToken: bigint,
    validity: HoldValidity,
    scope: FlowScope | undefined,
  ) {
    this.#client = client;
    this.lockPath = lockPath;
    this.fencingToken = fencingToken;
    this.#validity = validity;
    this.scope = scope;
  }

  get fencingTokenString(): string {
    return this.fencingToken.toString();
  }

  get lost(): AbortSignal {
    return this.#validity.signal;
  }

  get validUntil(): number {
    return this.#validity.validUntil;
  }

  /** Calls `listener` with the reason `lost` aborts with, without making the signal. */
  onLost(listener: (reason: Error) => void): () => void {
    return this.#validity.onLost(listener);
  }

  isValid(): boolean {
    return this.#validity.isValid();
  }

  transaction(
    ops: readonly TransactionOp[],
    options?: TransactionOptions,
  ): Promise<TransactionResult[]> {
    return guardedTransaction(this.#client, this.lockPath, ops, options, this.#validity.refusal());
  }

  toJSON(): LockHoldJson {
    return { lockPath: this.lockPath, fencingToken: this.fencingTokenString };
  }

  end(): void {
    this.#validity.end();
  }
}

/** @internal The handle of one acquire of {@link Hold}; `release` gives back that acquire. */
export class HoldHandle implements MutexHold {
  readonly #hold: Hold;
  readonly #release: () => Promise<void>;
  #released: Promise<void> | undefined;

  constructor(hold: Hold, release: () => Promise<void>) {
    this.#hold = hold;
    this.#release = release;
  }

  get lockPath(): string {
    return this.#hold.lockPath;
  }

  get fencingToken(): bigint {
    return this.#hold.fencingToken;
  }

  get fencingTokenString(): string {
    return this.#hold.fencingTokenString;
  }

  get lost(): AbortSignal {
    return this.#hold.lost;
  }

  get validUntil(): number {
    return this.#hold.validUntil;
  }

  isValid(): boolean {
    return this.#hold.isValid();
  }

  async transaction(
    ops: readonly TransactionOp[],
    options?: TransactionOptions,
  ): Promise<TransactionResult[]> {
    if (this.#released !== undefined) {
      // This acquire was given back, even if the flow still holds the lock through another.
      throw new HoldLostError({
        path: this.lockPath,
        detail: 'this hold was released',
        sent: false,
      });
    }
    return this.#hold.transaction(ops, options);
  }

  toJSON(): LockHoldJson {
    return this.#hold.toJSON();
  }

  release(): Promise<void> {
    this.#released ??= this.#release();
    return this.#released;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.release();
  }
}
