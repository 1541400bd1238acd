import { ZooKeeperError } from './zookeeper-error.js';

/** Options of {@link OutcomeUnknownError}. */
export interface OutcomeUnknownErrorOptions {
  /** The operation whose outcome is unknown: `'setData'`, `'create'`, `'delete'`, `'transaction'`, ... */
  readonly operation: string;
  /** The znode path of the operation (server path), when it has one. */
  readonly path?: string | undefined;
  /**
   * What the retry was answered (a BadVersionError, a NoNodeError, ...), or why the server's
   * state could not tell (the session that would have told is gone). Also the error's `cause`.
   */
  readonly answer: unknown;
  /** Why the state could not tell, for the message. */
  readonly detail?: string | undefined;
}

/**
 * OUTCOME_UNKNOWN (ours, no wire number): a write was sent, the connection was lost before its
 * reply, and the retry met an answer (BAD_VERSION, NO_NODE, NODE_EXISTS, a failed transaction)
 * that the server's state cannot attribute: the first attempt may have taken effect, or another
 * client's write may have come first. The framework never hands such an answer on as if it were
 * the answer to the first attempt (docs/framework/operations.md, "when a reply is lost").
 * `idempotent: true` on the call resolves the outcome exactly instead, except when the session
 * that sent the write is gone too.
 *
 * Not retryable: retrying could apply the write twice. Read what you need and decide.
 */
export class OutcomeUnknownError extends ZooKeeperError {
  /** Always `'OutcomeUnknownError'`. */
  override name = 'OutcomeUnknownError';
  declare readonly code: 'OUTCOME_UNKNOWN';
  /** The operation whose outcome is unknown. */
  readonly operation: string;
  /** What the retry was answered (also `cause`). */
  readonly answer: unknown;

  constructor(options: OutcomeUnknownErrorOptions) {
    const answered =
      options.answer instanceof ZooKeeperError
        ? `; the retry was answered ${options.answer.code}`
        : '';
    super('OUTCOME_UNKNOWN', {
      path: options.path,
      cause: options.answer,
      detail:
        options.detail ??
        `${options.operation}: the reply was lost and the server's state cannot tell whether the write took effect${answered}`,
    });
    this.operation = options.operation;
    this.answer = options.answer;
  }
}
