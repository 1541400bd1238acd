/**
 * The states of a {@link SetPartitioner}, kazoo's names. FAILURE is terminal: make a new
 * SetPartitioner to take part again.
 */
export const SetPartitionerState = {
  /**
   * Working out this member's share and acquiring its partitions' locks; also the state before
   * `start()`.
   */
  ALLOCATING: 'ALLOCATING',
  /** Every partition of the share is held (`partitions`, `holdOf(partition)`). */
  ACQUIRED: 'ACQUIRED',
  /**
   * The group changed or a hold may be gone: stop the work and call `releaseSet()` (done at
   * once with `autoRelease: true`), after which the partitioner allocates again.
   */
  RELEASE: 'RELEASE',
  /**
   * Terminal: the session was lost, the client closed, the partition function failed, or
   * `close()` was called.
   */
  FAILURE: 'FAILURE',
} as const;

/** One of {@link SetPartitionerState}'s values. */
export type SetPartitionerState = (typeof SetPartitionerState)[keyof typeof SetPartitionerState];
