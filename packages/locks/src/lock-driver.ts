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

/** Which of Curator's predicates a driver applies. */
type LockRule = 'standard' | 'read' | 'lease';

/**
 * How one kind of lock decides who holds it. One class for every kind, so the lock loop that
 * every lock shares sees one object shape and one `verdict` whatever lock it runs for: a
 * process that uses a mutex and a read lock keeps that loop's optimized code instead of having
 * it thrown away and recompiled when the second kind first comes through.
 */
export class LockDriver {
  /**
   * The recipe family, for "path used by another recipe" errors; undefined refuses nothing
   * (a semaphore's leases ignore the names they cannot parse).
   */
  readonly recipe: LockRecipe | undefined;
  /** The lock names whose sequences order the participants. */
  readonly markers: readonly string[];
  /**
   * Whether the deletion of the watched node may be judged on the last look at the queue,
   * without reading it again: true when every node that could stand in this waiter's way is
   * sequential, so a node that joins later sorts after us. False for a writer of the
   * read/write lock: a write holder's read node takes its write node's place in line.
   */
  readonly judgesDeletion: boolean;
  readonly #rule: LockRule;

  constructor(
    recipe: LockRecipe | undefined,
    markers: readonly string[],
    judgesDeletion: boolean,
    rule: LockRule,
  ) {
    this.recipe = recipe;
    this.markers = markers;
    this.judgesDeletion = judgesDeletion;
    this.#rule = rule;
  }

  /** Whether `ourName` holds the lock among `sorted` participants (it is one of them). */
  verdict(sorted: readonly string[], ourName: string, maxLeases: number): LockVerdict {
    switch (this.#rule) {
      case 'standard': {
        // Curator's StandardLockInternalsDriver: the first `maxLeases` hold; any other
        // watches the participant `maxLeases` places ahead of it.
        const index = sorted.indexOf(ourName);
        if (index < maxLeases) return HOLDS;
        return { holds: false, watch: sorted[index - maxLeases]! };
      }
      case 'read': {
        // Curator's ReadLock driver: no write node before ours, else wait for the first one.
        const ourIndex = sorted.indexOf(ourName);
        const firstWriter = sorted.findIndex((name) => name.includes(LockName.WRITE));
        if (firstWriter < 0 || ourIndex < firstWriter) return HOLDS;
        return { holds: false, watch: sorted[firstWriter]! };
      }
      case 'lease':
        // Curator's internalAcquire1Lease: hold while there are at most `maxLeases`.
        return sorted.length <= maxLeases ? HOLDS : { holds: false, watch: WATCH_CHILDREN };
    }
  }

  /**
   * Whether a newcomer could not hold the lock right now: the one-read answer of `acquire(0)`,
   * which then leaves nothing behind. Must never say false when the newcomer would wait.
   */
  blocked(sorted: readonly string[], maxLeases: number): boolean {
    if (this.#rule === 'read') return sorted.some((name) => name.includes(LockName.WRITE));
    return sorted.length >= maxLeases;
  }
}

/** InterProcessMutex: `lock-` nodes, one holder. */
export const MUTEX_DRIVER = new LockDriver('InterProcessMutex', [LockName.MUTEX], true, 'standard');

const READ_WRITE_MARKERS = [LockName.READ, LockName.WRITE] as const;

/** The write lock of InterProcessReadWriteLock: exclusive against readers and writers alike. */
export const WRITE_DRIVER = new LockDriver(
  'InterProcessReadWriteLock',
  READ_WRITE_MARKERS,
  false,
  'standard',
);

/**
 * The read lock: a reader holds when no write node sorts before it, and otherwise waits for the
 * first writer. Readers share; a queued writer stops later readers. Write nodes are always
 * sequential: none can join ahead of a waiting reader, so it judges deletions.
 */
export const READ_DRIVER = new LockDriver(
  'InterProcessReadWriteLock',
  READ_WRITE_MARKERS,
  true,
  'read',
);

/**
 * InterProcessSemaphoreV2's leases. Leases are made under the semaphore's mutex, so while one
 * waits the count only falls, and any lease may be returned first: a waiter watches the
 * children, not one lease (so it does not judge deletions).
 */
export const LEASE_DRIVER = new LockDriver(undefined, [LockName.LEASE], false, 'lease');
