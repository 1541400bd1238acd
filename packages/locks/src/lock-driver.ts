// The predicates of Curator's lock family (LockInternalsDriver): given the sorted participants,
// does this node hold the lock, and if not, which single node should it watch (never the
// parent: no herd when a lock changes hands).
import { LockName, type LockRecipe } from './lock-node-names.js';

/**
 * What a waiter watches instead of one node: the children, because any participant ahead may
 * leave first (a semaphore's leases are returned in any order).
 */
export const WATCH_CHILDREN = Symbol('watch the children');

/** The answer of a {@link LockDriver}: holds, or what to wait on (one node's name, usually). */
export type LockVerdict =
  | { readonly holds: true }
  | { readonly holds: false; readonly watch: string | typeof WATCH_CHILDREN };

/** The verdict that holds. */
export const HOLDS: LockVerdict = { holds: true };

/** How one kind of lock decides who holds it. */
export interface LockDriver {
  /**
   * The recipe family, for "path used by another recipe" errors; undefined refuses nothing
   * (a semaphore's leases ignore the names they cannot parse).
   */
  readonly recipe: LockRecipe | undefined;
  /** The lock names whose sequences order the participants. */
  readonly markers: readonly string[];
  /** Whether `ourName` holds the lock among `sorted` participants (it is one of them). */
  verdict(sorted: readonly string[], ourName: string, maxLeases: number): LockVerdict;
  /**
   * Whether a newcomer could not hold the lock right now: the one-read answer of `acquire(0)`,
   * which then leaves nothing behind. Must never say false when the newcomer would wait.
   */
  blocked(sorted: readonly string[], maxLeases: number): boolean;
  /**
   * Whether the deletion of the watched node may be judged on the last look at the queue,
   * without reading it again: true when every node that could stand in this waiter's way is
   * sequential, so a node that joins later sorts after us. False for a writer of the
   * read/write lock: a write holder's read node takes its write node's place in line.
   */
  readonly judgesDeletion: boolean;
}

/**
 * Curator's StandardLockInternalsDriver: the first `maxLeases` participants hold; any other
 * watches the participant `maxLeases` places ahead of it.
 */
function standardDriver(
  recipe: LockRecipe,
  markers: readonly string[],
  judgesDeletion: boolean,
): LockDriver {
  return {
    recipe,
    markers,
    judgesDeletion,
    verdict(sorted, ourName, maxLeases) {
      const index = sorted.indexOf(ourName);
      if (index < maxLeases) return HOLDS;
      return { holds: false, watch: sorted[index - maxLeases]! };
    },
    blocked: (sorted, maxLeases) => sorted.length >= maxLeases,
  };
}

/** InterProcessMutex: `lock-` nodes, one holder. */
export const MUTEX_DRIVER = standardDriver('InterProcessMutex', [LockName.MUTEX], true);

const READ_WRITE_MARKERS = [LockName.READ, LockName.WRITE] as const;

/** The write lock of InterProcessReadWriteLock: exclusive against readers and writers alike. */
export const WRITE_DRIVER = standardDriver('InterProcessReadWriteLock', READ_WRITE_MARKERS, false);

/**
 * The read lock (Curator's ReadLock driver): a reader holds when no write node sorts before it,
 * and otherwise waits for the first writer. Readers share; a queued writer stops later readers.
 */
export const READ_DRIVER: LockDriver = {
  recipe: 'InterProcessReadWriteLock',
  markers: READ_WRITE_MARKERS,
  // Write nodes are always sequential: none can join ahead of a waiting reader.
  judgesDeletion: true,
  verdict(sorted, ourName) {
    const ourIndex = sorted.indexOf(ourName);
    const firstWriter = sorted.findIndex((name) => name.includes(LockName.WRITE));
    if (firstWriter < 0 || ourIndex < firstWriter) return HOLDS;
    return { holds: false, watch: sorted[firstWriter]! };
  },
  blocked: (sorted) => sorted.some((name) => name.includes(LockName.WRITE)),
};

/**
 * InterProcessSemaphoreV2's leases, counted as Curator's `internalAcquire1Lease` counts them: a
 * lease holds while there are at most `maxLeases`. Leases are made under the semaphore's mutex,
 * so while one waits the count only falls, and any lease may be returned first: a waiter
 * watches the children, not one lease.
 */
export const LEASE_DRIVER: LockDriver = {
  recipe: undefined,
  markers: [LockName.LEASE],
  judgesDeletion: false, // it watches the children, not one node
  verdict: (sorted, _ourName, maxLeases) =>
    sorted.length <= maxLeases ? HOLDS : { holds: false, watch: WATCH_CHILDREN },
  blocked: (sorted, maxLeases) => sorted.length >= maxLeases,
};
