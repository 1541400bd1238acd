// The option objects of LeaderLatch, with their defaults: kept apart from the class so the
// class reads as behaviour.

/** Options of {@link LeaderLatch}. */
export interface LeaderLatchOptions {
  /** This participant's id, stored as its node's data (UTF-8). Default: ''. */
  readonly id?: string | undefined;
  /**
   * Whether `close()` without options calls the notLeader listeners when it ends leadership
   * (Curator's `CloseMode.NOTIFY_LEADER`). Default: false (Curator's `SILENT`).
   */
  readonly notifyLeaderOnClose?: boolean | undefined;
  /** Participant reads in flight at once in `getParticipants()`. Default: 16. */
  readonly concurrency?: number | undefined;
}

/** Options of {@link LeaderLatch.close}. */
export interface LeaderLatchCloseOptions {
  /** Call the notLeader listeners if this closes a leadership. Default: the constructor's. */
  readonly notifyLeader?: boolean | undefined;
}

/** Options of {@link LeaderLatch.await}. */
export interface LeaderLatchAwaitOptions {
  /**
   * Resolve false after this long, whatever the connection does meanwhile. Default: wait until
   * leader (or closed); 0 does not wait.
   */
  readonly timeoutMs?: number | undefined;
  /** Aborting rejects with `signal.reason`. Default: none. */
  readonly signal?: AbortSignal | undefined;
}
