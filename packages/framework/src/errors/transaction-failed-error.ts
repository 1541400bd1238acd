import { codeName, type ZooKeeperErrorCodeName } from './zookeeper-error-code.js';
import { ZooKeeperError } from './zookeeper-error.js';

/** One op of a failed transaction as the server reported it. */
export interface TransactionOpOutcome {
  /** The op's kind: `'create'`, `'delete'`, `'setData'` or `'check'`. */
  readonly type: string;
  /** The op's server path (namespace applied). */
  readonly path: string;
  /** Undefined for an op that would have succeeded; the failing op's code otherwise. */
  readonly code: ZooKeeperErrorCodeName | undefined;
}

/**
 * A transaction (multi) the server rejected as a whole: nothing was applied. `code` is the
 * failing op's code, so predicates like `isNodeExists(err)` work; `failedOpIndex` says which op.
 */
export class TransactionFailedError extends ZooKeeperError {
  /** Always `'TransactionFailedError'`. */
  override name = 'TransactionFailedError';
  /** The zero-based index of the op that made the transaction fail. */
  readonly failedOpIndex: number;
  /** What the server reported for each op, in the order the ops were given. */
  readonly outcomes: readonly TransactionOpOutcome[];

  constructor(failedOpIndex: number, outcomes: readonly TransactionOpOutcome[], zkCode: number) {
    const failed = outcomes[failedOpIndex];
    super(failed?.code ?? 'UNKNOWN', {
      zkCode,
      path: failed?.path,
      detail: `transaction failed at op ${failedOpIndex} (${failed?.type ?? '?'}); nothing was applied`,
    });
    this.failedOpIndex = failedOpIndex;
    this.outcomes = outcomes;
  }

  /**
   * From the per-op error numbers of a multi reply: ops before the failure report 0, the
   * failing op its code, later ops RUNTIME_INCONSISTENCY (-2).
   */
  static fromResults(
    errors: readonly number[],
    ops: readonly { readonly type: string; readonly path: string }[],
  ): TransactionFailedError {
    const index = Math.max(
      0,
      errors.findIndex((err) => err !== 0),
    );
    const outcomes = ops.map((op, i) => {
      const err = errors[i] ?? 0;
      return { type: op.type, path: op.path, code: err === 0 ? undefined : codeName(err) };
    });
    return new TransactionFailedError(index, outcomes, errors[index] ?? 0);
  }
}
