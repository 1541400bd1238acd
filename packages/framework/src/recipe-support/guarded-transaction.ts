// A write that only lands while a hold (a lock node, a lease, a leader's node) still exists:
// the caller's ops in one multi behind a check of the holder's own node. ZooKeeper applies a
// multi all or nothing, so a holder whose node is gone (its session expired, someone deleted
// it) cannot write through it, however late its request arrives.
import type { FrameworkClient } from '../client/framework-client.js';
import type { TransactionOptions } from '../client/operation-options.js';
import { TransactionFailedError } from '../errors/transaction-failed-error.js';
import { op, type TransactionOp, type TransactionResult } from '../client/transaction-op.js';
import { HoldLostError } from '../errors/hold-lost-error.js';
import { OutcomeUnknownError } from '../errors/outcome-unknown-error.js';
import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { describeValue } from '../errors/describe-value.js';
import { checkOptionsObject } from '../checks/option-checks.js';

/** Options of a guarded transaction: the client's transaction options. */
export type GuardedTransactionOptions = TransactionOptions;

/**
 * Runs `ops` in one transaction with a check (any version) of `holderPath`, the holder's own
 * node, placed first. Resolves the results of `ops` only (the check's own result is left
 * out). Rejects with:
 * - `refusal`, when given: the hold is known gone here, and nothing is sent;
 * - HoldLostError (`sent: true`, cause the server's TransactionFailedError) when the check
 *   met NO_NODE: the node is gone, nothing was written;
 * - a TransactionFailedError indexed as `ops` were given when one of them failed;
 * - OutcomeUnknownError when a reply was lost and the outcome cannot be learnt (its `answer`
 *   is a HoldLostError when the retry found the node gone): if the write landed, it landed
 *   while the node existed.
 *
 * `idempotent` defaults to true here: after a lost reply, the retry learns whether the first
 * attempt landed, where without it the answer is OutcomeUnknownError (a guard judged on the
 * retry alone would say "gone, nothing written" about a write that landed before).
 */
export async function guardedTransaction(
  client: FrameworkClient,
  holderPath: string,
  ops: readonly TransactionOp[],
  options: GuardedTransactionOptions | undefined,
  refusal: HoldLostError | undefined,
): Promise<TransactionResult[]> {
  // Checked through `unknown`: on `ops` itself the check would type its items as any.
  const given: unknown = ops;
  if (!Array.isArray(given)) {
    throw new InvalidArgumentError(`transaction ops must be an array; got ${describeValue(ops)}`);
  }
  checkOptionsObject(options);
  if (refusal !== undefined) throw refusal;
  const guarded = [op.check(holderPath), ...ops];
  try {
    const idempotent = options?.idempotent ?? true;
    const results = await client.transaction(guarded, { ...options, idempotent });
    return results.slice(1);
  } catch (error) {
    throw withoutGuard(error, holderPath);
  }
}

/** `error` as the caller's ops would have met it without the guard in front of them. */
function withoutGuard(error: unknown, holderPath: string): unknown {
  if (error instanceof TransactionFailedError) return failedWithoutGuard(error, holderPath);
  if (error instanceof OutcomeUnknownError && error.answer instanceof TransactionFailedError) {
    return new OutcomeUnknownError({
      operation: error.operation,
      path: error.path,
      answer: failedWithoutGuard(error.answer, holderPath),
    });
  }
  // Validation names ops by index: ours is op 0, so the caller's op i is op i+1 there.
  if (error instanceof InvalidArgumentError && error.detail !== undefined) {
    const renumbered = /^op (\d+) \(/.exec(error.detail);
    if (renumbered !== null) {
      const index = Number(renumbered[1]) - 1;
      return new InvalidArgumentError(`op ${index} (${error.detail.slice(renumbered[0].length)}`, {
        path: error.path,
        cause: error,
      });
    }
  }
  return error;
}

function failedWithoutGuard(error: TransactionFailedError, holderPath: string): Error {
  if (error.failedOpIndex === 0) {
    if (error.code !== 'NO_NODE') return error; // NO_AUTH on the holder's node, say
    return new HoldLostError({
      path: holderPath,
      detail: "the holder's node is gone (its session expired, or it was deleted)",
      cause: error,
      sent: true,
    });
  }
  return new TransactionFailedError(
    error.failedOpIndex - 1,
    error.outcomes.slice(1),
    error.zkCode ?? 0,
  );
}
