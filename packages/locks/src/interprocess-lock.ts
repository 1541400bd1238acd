/** Options of every `acquire` that may wait. */
export interface AcquireOptions {
  /**
   * Aborting gives up the wait: `acquire` rejects with `signal.reason` after removing the node
   * it queued with. `AbortSignal.timeout(ms)` works too (then the reason is a `TimeoutError`).
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
   * with `timeoutMs` it resolves `false` when the time runs out first; `acquire(0)` answers at
   * once without waiting. Rejects on ZooKeeper errors the retry policy gave up on, when the
   * client closes, and with `signal.reason` when aborted.
   */
  acquire(timeoutMs?: number, options?: AcquireOptions): Promise<boolean>;
  /** Gives the lock back (one release per successful acquire). */
  release(): Promise<void>;
  /** True while some flow of this process holds the lock through this object. */
  isAcquiredInThisProcess(): boolean;
}
