// The predicates of Curator's lock family (LockInternalsDriver): given the sorted participants,
// does this node hold the lock, and if not, which single node should it watch (never the
// parent: no herd when a lock changes hands).
import { LockName, type LockRecipe } from './lock-node-names.js';

/** The answer of a {@link LockDriver}: holds, or the one node to wait on. */
export type LockVerdict =
  { readonly holds: true } | { readonly holds: false; readonly watch: string };

/** How one kind of lock decides who holds it. */
export interface LockDriver {
  /** The recipe family, for "path used by another recipe" errors. */
  readonly recipe: LockRecipe;
  /** The lock names whose sequences order the participants. */
  readonly markers: readonly string[];
  /** Whether `ourName` holds the lock among `sorted` participants (it is one of them). */
  verdict(sorted: readonly string[], ourName: string, maxLeases: number): LockVerdict;
  /**
   * Whether a newcomer could not hold the lock right now: the one-read answer of `acquire(0)`,
   * which then leaves nothing behind. Must never say false when the newcomer would wait.
   */
  blocked(sorted: readonly string[], maxLeases: number): boolean;
}

/**
 * Curator's StandardLockInternalsDriver: the first `maxLeases` participants hold; any other
 * watches the participant `maxLeases` places ahead of it.
 */
function standardDriver(recipe: LockRecipe, markers: readonly string[]): LockDriver {
  return {
    recipe,
    markers,
    verdict(sorted, ourName, maxLeases) {
      const index = sorted.indexOf(ourName);
      if (index < maxLeases) return { holds: true };
      return { holds: false, watch: sorted[index - maxLeases]! };
    },
    blocked: (sorted, maxLeases) => sorted.length >= maxLeases,
  };
}

/** InterProcessMutex: `lock-` nodes, one holder. */
export const MUTEX_DRIVER = standardDriver('InterProcessMutex', [LockName.MUTEX]);

const READ_WRITE_MARKERS = [LockName.READ, LockName.WRITE] as const;

/** The write lock of InterProcessReadWriteLock: exclusive against readers and writers alike. */
export const WRITE_DRIVER = standardDriver('InterProcessReadWriteLock', READ_WRITE_MARKERS);

/**
 * The read lock (Curator's ReadLock driver): a reader holds when no write node sorts before it,
 * and otherwise waits for the first writer. Readers share; a queued writer stops later readers.
 */
export const READ_DRIVER: LockDriver = {
  recipe: 'InterProcessReadWriteLock',
  markers: READ_WRITE_MARKERS,
  verdict(sorted, ourName) {
    const ourIndex = sorted.indexOf(ourName);
    const firstWriter = sorted.findIndex((name) => name.includes(LockName.WRITE));
    if (firstWriter < 0 || ourIndex < firstWriter) return { holds: true };
    return { holds: false, watch: sorted[firstWriter]! };
  },
  blocked: (sorted) => sorted.some((name) => name.includes(LockName.WRITE)),
};
