/** Options of every `acquire` that may wait. */
export interface AcquireOptions {
  /**
   * Aborting gives up at once, in any connection state: `acquire` rejects with `signal.reason`,
   * and the node it queued with is deleted (the delete is sent at once, or when the connection
   * returns). `AbortSignal.timeout(ms)` works too (then the reason is a `TimeoutError`).
   * Default: none.
   */
  readonly signal?: AbortSignal | undefined;
}

/**
 * What every lock in this package offers (Curator's `InterProcessLock`); InterProcessMultiLock
 * takes a list of them.
 */
export interface InterProcessLock {
  /**
   * Waits for the lock. Without `timeoutMs` it waits as long as it takes and resolves `true`;
   * with `timeoutMs` it resolves `false` when the time runs out first, in any connection state;
   * `acquire(0)` answers at once without waiting (`false` without a connection). Rejects on
   * ZooKeeper errors the retry policy gave up on, when the client closes, and with
   * `signal.reason` when aborted. It resolves only while the hold is valid (`isValid()`): a
   * turn that comes while the session is unproven (news read right after a freeze) is looked
   * at again first.
   */
  acquire(timeoutMs?: number, options?: AcquireOptions): Promise<boolean>;
  /**
   * Gives the lock back (one release per successful acquire). Waits for the server's answer
   * only while connected; during an outage the delete goes on in the background.
   */
  release(): Promise<void>;
  /** True while some flow of this process holds the lock through this object. */
  isAcquiredInThisProcess(): boolean;
}
