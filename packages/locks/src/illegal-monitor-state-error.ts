/**
 * A lock was used in a way its state does not allow: `release()` by a flow that does not hold
 * it, a read-to-write upgrade, a semaphore mutex released without a lease. Curator throws
 * `IllegalMonitorStateException` (or `IllegalStateException`) for the same mistakes.
 *
 * It is a programming error, not a ZooKeeper failure, so it is not a `ZooKeeperError` and is
 * never retried.
 */
export class IllegalMonitorStateError extends Error {
  /** Always `'IllegalMonitorStateError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'IllegalMonitorStateError';
  /** Always `'ILLEGAL_MONITOR_STATE'`: a stable code to branch on across package copies. */
  readonly code = 'ILLEGAL_MONITOR_STATE';
  /** The lock's path (namespace-relative, as the lock was given it). */
  readonly path: string;

  constructor(message: string, options: { readonly path: string; readonly cause?: unknown }) {
    super(`${message}: ${options.path}`, { cause: options.cause });
    this.path = options.path;
  }
}

/** True for an {@link IllegalMonitorStateError}. */
export function isIllegalMonitorState(error: unknown): error is IllegalMonitorStateError {
  return error instanceof IllegalMonitorStateError;
}
