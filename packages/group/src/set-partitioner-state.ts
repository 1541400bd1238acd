/**
 * The states of a {@link SetPartitioner}, kazoo's names:
 *
 * - `ALLOCATING`: working out this member's share and acquiring its partitions' locks (also
 *   the state before `start()`);
 * - `ACQUIRED`: every partition of the share is held (`partitions`, `holdOf(partition)`);
 * - `RELEASE`: the group changed or a hold may be gone: stop the work and call `releaseSet()`
 *   (done at once with `autoRelease: true`), after which the partitioner allocates again;
 * - `FAILURE`: terminal: the session was lost, the client closed, the partition function
 *   failed, or `close()` was called. Make a new SetPartitioner to take part again.
 */
export const SetPartitionerState = {
  ALLOCATING: 'ALLOCATING',
  ACQUIRED: 'ACQUIRED',
  RELEASE: 'RELEASE',
  FAILURE: 'FAILURE',
} as const;

/** One of {@link SetPartitionerState}'s values. */
export type SetPartitionerState = (typeof SetPartitionerState)[keyof typeof SetPartitionerState];
