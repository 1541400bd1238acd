import { Buffer } from 'node:buffer';
import { TransactionFailedError } from '../errors/transaction-failed-error.js';
import type { WitnessSlot, WriteWitnesses } from './write-witnesses.js';
import { errorFromCode } from '../errors/error-from-code.js';
import { wasSent } from '../errors/never-sent.js';
import { OutcomeUnknownError } from '../errors/outcome-unknown-error.js';
import { isRetryable } from '../errors/predicates.js';
import type { Stat, WireTransactionOp, WireTransactionResult } from '../zk/zookeeper-types.js';
import type { ZooKeeperOperations } from '../zk/zookeeper-operations.js';

/** What an idempotent write learned: applied now (with the server's results) or earlier. */
export type IdempotentOutcome =
  | { readonly applied: 'now'; readonly results: WireTransactionResult[] }
  /** An earlier attempt was applied and its reply lost: `zxid`/`mtime` are its transaction's. */
  | { readonly applied: 'earlier'; readonly zxid: bigint; readonly mtime: number };

/** What an idempotent write needs from the client. */
export interface IdempotentWriteDeps {
  readonly ops: ZooKeeperOperations;
  readonly witnesses: WriteWitnesses;
  readonly currentSessionId: () => bigint | undefined;
}

const EMPTY = Buffer.alloc(0);

/**
 * The attempts of one idempotent write (`idempotent: true`): each sends the caller's ops in one
 * transaction behind a versioned setData of a witness node only this call writes (see
 * WriteWitnesses). After a lost reply, the retry is the question: the witness still at the
 * version the call expects means the first attempt was not applied and the retry does the
 * write; one version further means it was, and the retry fails on the witness alone without
 * touching the caller's nodes. Both answers come from the leader in session order, after the
 * lost attempt settled, so no read can be stale. Only a session change (the witness went with
 * the session) leaves the outcome unknown.
 */
export class IdempotentWrite {
  readonly #ops: ZooKeeperOperations;
  readonly #witnesses: WriteWitnesses;
  readonly #currentSessionId: () => bigint | undefined;
  readonly #operation: string;
  readonly #path: string | undefined;
  #slot: WitnessSlot | undefined;
  #ambiguous = false;
  /**
   * True while the slot's last request has no answer from the server (it was aborted, or cut
   * off): it may still be applied later, so the slot must not serve another write.
   */
  #unanswered = false;

  constructor(deps: IdempotentWriteDeps, operation: string, path: string | undefined) {
    this.#ops = deps.ops;
    this.#witnesses = deps.witnesses;
    this.#currentSessionId = deps.currentSessionId;
    this.#operation = operation;
    this.#path = path;
  }

  /** True once an attempt was sent and cut off. */
  get ambiguous(): boolean {
    return this.#ambiguous;
  }

  /**
   * One attempt (run it in the client's retry loop). A failure of the caller's ops is a
   * TransactionFailedError indexed as the caller gave them, and definite: the write was not
   * applied by this or any earlier attempt.
   */
  async attempt(
    ops: readonly WireTransactionOp[],
    signal?: AbortSignal,
  ): Promise<IdempotentOutcome> {
    const slot = await this.#slotFor(signal);
    const expected = slot.version;
    const witness: WireTransactionOp = {
      type: 'setData',
      path: slot.path,
      data: EMPTY,
      version: expected,
    };
    this.#unanswered = true;
    try {
      const results = await this.#ops.multi([witness, ...ops], signal);
      this.#unanswered = false;
      const first = results[0];
      slot.version = first?.type === 'setData' ? first.stat.version : expected + 1;
      return { applied: 'now', results: results.slice(1) };
    } catch (error) {
      if (isRetryable(error)) {
        if (wasSent(error)) this.#ambiguous = true;
        throw error;
      }
      if (!(error instanceof TransactionFailedError)) throw error;
      this.#unanswered = false;
      if (error.failedOpIndex === 0) {
        const earlier = await this.#appliedEarlier(slot, expected, error, signal);
        if (earlier !== undefined) {
          return { applied: 'earlier', zxid: earlier.mzxid, mtime: earlier.mtime };
        }
        // Someone else wrote or deleted the witness, and nothing of ours is unresolved: again
        // with a fresh one.
        return this.attempt(ops, signal);
      }
      throw new TransactionFailedError(
        error.failedOpIndex - 1,
        error.outcomes.slice(1),
        error.zkCode ?? 0,
      );
    }
  }

  /**
   * One attempt of a single-op write: the op's own failure is the plain error a write without
   * `idempotent` would have met (a NoNodeError, not a failed transaction).
   */
  async attemptOne(op: WireTransactionOp, signal?: AbortSignal): Promise<IdempotentOutcome> {
    try {
      return await this.attempt([op], signal);
    } catch (error) {
      if (!(error instanceof TransactionFailedError)) throw error;
      throw errorFromCode(error.zkCode ?? 0, { path: op.path });
    }
  }

  /** Gives the witness back; call once the write's outcome is known (or given up on). */
  finish(): void {
    const slot = this.#slot;
    this.#slot = undefined;
    if (slot === undefined) return;
    // A slot whose last write is unresolved, or may still be on its way, cannot serve the next.
    if (this.#ambiguous || this.#unanswered) this.#witnesses.discard(slot);
    else this.#witnesses.release(slot);
  }

  async #slotFor(signal: AbortSignal | undefined): Promise<WitnessSlot> {
    const slot = this.#slot;
    if (slot !== undefined && slot.sessionId === this.#currentSessionId()) return slot;
    if (slot !== undefined) {
      this.#slot = undefined;
      this.#witnesses.discard(slot);
      // The witness went with the session that may have applied the write.
      if (this.#ambiguous)
        throw this.#unknown('the session that sent it is gone, and its witness with it');
    }
    this.#slot = await this.#witnesses.acquire(signal);
    return this.#slot;
  }

  /**
   * The witness failed the retry's check: one version further because our lost attempt was
   * applied (its Stat: its mzxid is that write's zxid), or else changed by someone else (the
   * slot is dropped; undefined when nothing of ours is unresolved, so the write can go again
   * with a fresh witness).
   */
  async #appliedEarlier(
    slot: WitnessSlot,
    expected: number,
    error: TransactionFailedError,
    signal: AbortSignal | undefined,
  ): Promise<Stat | undefined> {
    const stat: Stat | null = await this.#ops.exists(slot.path, undefined, signal);
    if (stat !== null && this.#ambiguous && stat.version === expected + 1) {
      slot.version = stat.version;
      this.#ambiguous = false;
      return stat;
    }
    this.#slot = undefined;
    this.#witnesses.discard(slot);
    if (this.#ambiguous) throw this.#unknown('its witness node was changed by someone else', error);
    return undefined;
  }

  #unknown(detail: string, answer?: unknown): OutcomeUnknownError {
    return new OutcomeUnknownError({
      operation: this.#operation,
      path: this.#path,
      answer,
      detail: `${this.#operation}: the reply was lost and ${detail}`,
    });
  }
}
