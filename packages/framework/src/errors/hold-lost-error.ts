import { ZooKeeperError } from './zookeeper-error.js';

/** Options of {@link HoldLostError}. */
export interface HoldLostErrorOptions {
  /** The holder's node (namespace-relative): the lock node, lease node or leader's node. */
  readonly path: string;
  /** Why the hold is gone, for the message. */
  readonly detail: string;
  /**
   * What told: the server's TransactionFailedError (the guard's check met NO_NODE), or the
   * reason the hold's `lost` signal carries when the write was refused before sending.
   */
  readonly cause?: unknown;
  /** Whether the transaction reached the server (false: refused locally, nothing sent). */
  readonly sent: boolean;
}

/**
 * HOLD_LOST (ours, no wire number): a write guarded by a hold (`hold.transaction`,
 * `lease.transaction`, `leadership.transaction`) was refused because the hold is gone, and
 * **nothing was written**. Either the server's check of the holder's own node failed (the node
 * no longer exists: the session expired, or someone deleted it), or the hold was already
 * released or known lost here, and nothing was sent.
 *
 * Not retryable: the hold will not come back. Acquire again (a new hold, a new fencing token)
 * and decide anew whether the write is still wanted.
 */
export class HoldLostError extends ZooKeeperError {
  /** Always `'HoldLostError'`. */
  override name = 'HoldLostError';
  declare readonly code: 'HOLD_LOST';
  /** True when the server refused the write (the guard's check failed); false when not sent. */
  readonly sent: boolean;

  constructor(options: HoldLostErrorOptions) {
    super('HOLD_LOST', {
      path: options.path,
      detail: `${options.detail}; nothing was written`,
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.sent = options.sent;
  }
}
