// What a leader gets besides being told it leads: a way to check, synchronously and without a
// timer, that it may still act as the leader; the fencing token of its leadership; and writes
// that land only while its node exists. LeaderSelector hands one to takeLeadership; LeaderLatch
// exposes the current one (see LatchLeadership).
import {
  HoldLostError,
  type FrameworkClient,
  type TransactionOp,
  type TransactionOptions,
  type TransactionResult,
} from '@zkrecipes/framework';
import type { LockHold } from '@zkrecipes/locks';

/**
 * One leadership: what `takeLeadership(signal, leadership)` of a {@link LeaderSelector} gets,
 * and what `latch.currentLeadership` of a {@link LeaderLatch} gives while it leads. Check
 * {@link isValid} just before each side effect only the leader may make: unlike the signal,
 * which aborts from an event, it is right on the first line after an event-loop stall. For
 * writes elsewhere, pass the {@link fencingToken}; for writes to ZooKeeper, use
 * {@link transaction}.
 */
export interface Leadership {
  /**
   * Aborts when this leadership ends or may be gone: for a selector, the signal
   * `takeLeadership` gets (error-policy states, `interruptLeadership()`, `close()`); for a
   * latch, when `isLeader` turns false.
   */
  readonly signal: AbortSignal;
  /**
   * Until when (a `performance.now()` instant) this leadership is known to be sound: the
   * client's `validUntilMs` while it lasts and its signal has not aborted, else -Infinity.
   */
  readonly validUntil: number;
  /**
   * Strictly greater than the token of every earlier leadership of this election path, also
   * across sessions and a delete and re-create of the path: the czxid of the leader's own
   * node (a zxid: it only grows across the ensemble), the number `zkrecipes inspect` shows and
   * a Java service reads from the node's Stat. Pass it to the resource the leader writes and
   * let the resource refuse smaller tokens than it has seen. A latch that leads again through
   * the same node (after a SUSPENDED in the same session) keeps its token: nobody led between.
   */
  readonly fencingToken: bigint;
  /** {@link fencingToken} in decimal, for JSON, headers and logs; `BigInt(s)` gives it back. */
  readonly fencingTokenString: string;
  /** `performance.now() < validUntil`: true while this participant may still act as leader. */
  isValid(): boolean;
  /**
   * A write that lands only while this leadership's node exists: runs `ops` (built with the
   * framework's `op`) in one ZooKeeper transaction with a check of the leader's node. Resolves
   * the results of `ops` (the check's own result is left out). Rejects with HoldLostError
   * (`isHoldLost`) when the node is gone (nothing was written), or at once, sending nothing,
   * once this leadership has ended or its signal aborted. `idempotent` defaults to true.
   */
  transaction(
    ops: readonly TransactionOp[],
    options?: TransactionOptions,
  ): Promise<TransactionResult[]>;
}

/** @internal The leadership handed to one takeLeadership call; {@link end} when it returns. */
export class SelectorLeadership implements Leadership {
  readonly signal: AbortSignal;
  readonly #client: FrameworkClient;
  /** The selector mutex's hold this leadership was won with. */
  readonly #hold: LockHold;
  #ended = false;

  constructor(client: FrameworkClient, signal: AbortSignal, hold: LockHold) {
    this.#client = client;
    this.signal = signal;
    this.#hold = hold;
  }

  get validUntil(): number {
    // Every error-policy state aborts the signal, so an unaborted one means no loss since the
    // lock was confirmed; the client's own bound covers a stall that no event has reported yet.
    return this.#ended || this.signal.aborted ? -Infinity : this.#client.validUntilMs;
  }

  get fencingToken(): bigint {
    return this.#hold.fencingToken;
  }

  get fencingTokenString(): string {
    return this.#hold.fencingTokenString;
  }

  isValid(): boolean {
    return performance.now() < this.validUntil;
  }

  async transaction(
    ops: readonly TransactionOp[],
    options?: TransactionOptions,
  ): Promise<TransactionResult[]> {
    if (this.#ended || this.signal.aborted) {
      throw new HoldLostError({
        path: this.#hold.lockPath,
        detail: this.#ended ? 'leadership ended' : 'leadership was cancelled',
        cause: this.#ended ? undefined : this.signal.reason,
        sent: false,
      });
    }
    return this.#hold.transaction(ops, options);
  }

  /** takeLeadership returned: the leadership is over. */
  end(): void {
    this.#ended = true;
  }
}
