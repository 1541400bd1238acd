// Node names on the wire, exactly Curator's: `_c_<uuid>-` (protected mode) + a lock name + the
// 10-digit sequence ZooKeeper appends. Participants sort by the sequence after the last lock
// name; names that do not parse are someone else's and are ignored.
import { compareSequenceWrapping, sequenceSuffix } from '@zkrecipes/framework';

/** The lock names Curator 5.x uses, byte for byte. */
export const LockName = {
  /** InterProcessMutex (and LeaderSelector). */
  MUTEX: 'lock-',
  /** InterProcessReadWriteLock's read lock. Same length as WRITE: Curator relies on it. */
  READ: '__READ__',
  /** InterProcessReadWriteLock's write lock. */
  WRITE: '__WRIT__',
  /** InterProcessSemaphoreV2's leases, under `<path>/leases`. */
  LEASE: 'lease-',
} as const;
export type LockName = (typeof LockName)[keyof typeof LockName];

/** The children of a semaphore's path (Curator's `InterProcessSemaphoreV2.LOCK_SCHEMA`). */
export const SEMAPHORE_LOCKS = 'locks';
export const SEMAPHORE_LEASES = 'leases';

/**
 * The sequence of a participant: the signed 32-bit number after the last of `markers` in the
 * name (`_c_<uuid>-lock-0000000042` is 42, `lock--000000003` is -3 after the counter wrapped),
 * or undefined when the name has none of them or no valid sequence after it.
 */
export function lockSequence(name: string, markers: readonly string[]): number | undefined {
  // Curator strips through the last occurrence of its lock name; with two names (read/write
  // lock) whichever ends last wins. The rest must be exactly a sequence.
  let best: { at: number; marker: string } | undefined;
  for (const marker of markers) {
    const at = name.lastIndexOf(marker);
    if (at >= 0 && (best === undefined || at + marker.length > best.at + best.marker.length)) {
      best = { at, marker };
    }
  }
  if (best === undefined) return undefined;
  return sequenceSuffix(name.slice(best.at), { prefix: best.marker });
}

/**
 * The children that are participants, in lock order: by sequence, wrap-aware (after
 * 2147483647 comes -2147483648), and by name between equal sequences (a downgraded read lock
 * shares its write lock's number). Children without a sequence after a marker are left out.
 */
export function sortParticipants(
  children: readonly string[],
  markers: readonly string[],
): string[] {
  const parsed: Participant[] = [];
  for (const name of children) {
    const sequence = lockSequence(name, markers);
    if (sequence !== undefined) parsed.push({ name, sequence });
  }
  return sortParsed(parsed);
}

interface Participant {
  readonly name: string;
  readonly sequence: number;
}

function sortParsed(parsed: Participant[]): string[] {
  parsed.sort(
    (a, b) =>
      compareSequenceWrapping(a.sequence, b.sequence) ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  return parsed.map((entry) => entry.name);
}

/** The recipe families that can own a lock path, for "used by another recipe" errors. */
export type LockRecipe = 'InterProcessMutex' | 'InterProcessReadWriteLock';

const SEQUENCE = '(?:\\d{10}|-\\d{9,10})';
const MUTEX_NODE = new RegExp(`lock-${SEQUENCE}$`);
const READ_WRITE_NODE = new RegExp(`__(?:READ|WRIT)__${SEQUENCE}$`);
const LATCH_NODE = new RegExp(`latch-${SEQUENCE}$`);
const FOREIGN: readonly {
  recipe: string;
  owner?: LockRecipe;
  matches: (name: string) => boolean;
}[] = [
  {
    recipe: 'an InterProcessMutex or LeaderSelector',
    owner: 'InterProcessMutex',
    matches: (name) => MUTEX_NODE.test(name),
  },
  {
    recipe: 'an InterProcessReadWriteLock',
    owner: 'InterProcessReadWriteLock',
    matches: (name) => READ_WRITE_NODE.test(name),
  },
  { recipe: 'a LeaderLatch', matches: (name) => LATCH_NODE.test(name) },
  {
    recipe: 'an InterProcessSemaphoreV2 or InterProcessSemaphoreMutex',
    matches: (name) => name === SEMAPHORE_LOCKS || name === SEMAPHORE_LEASES,
  },
];

/**
 * If `children` show that another recipe uses this path, a description of it ("a LeaderLatch");
 * undefined otherwise. A lock trusts only its own node names; these are the ones it knows to
 * belong to Curator's other recipes, which would silently break both sides if mixed.
 */
export function foreignRecipe(children: readonly string[], own: LockRecipe): string | undefined {
  for (const name of children) {
    const recipe = foreignRecipeOf(name, own);
    if (recipe !== undefined) return recipe;
  }
  return undefined;
}

function foreignRecipeOf(name: string, own: LockRecipe): string | undefined {
  for (const { recipe, owner, matches } of FOREIGN) {
    if (owner !== own && matches(name)) return recipe;
  }
  return undefined;
}

/** What one child name is to a lock: its place in line, another recipe's node, or neither. */
interface ParsedName {
  readonly sequence: number | undefined;
  readonly foreign: string | undefined;
}

/**
 * {@link foreignRecipe} and {@link sortParticipants} in one pass for one lock, parsing each
 * name once: a lock's children repeat from one read to the next (a waiter reads the same queue
 * when it joins and again when the node ahead goes), so only the new names are parsed.
 */
export class ParticipantSorter {
  readonly #own: LockRecipe | undefined;
  readonly #markers: readonly string[];
  /** The names of the last read; names that left the lock are dropped at the next one. */
  #known = new Map<string, ParsedName>();

  /** `own` undefined: no name is taken for another recipe's (see `LockDriver.recipe`). */
  constructor(own: LockRecipe | undefined, markers: readonly string[]) {
    this.#own = own;
    this.#markers = markers;
  }

  /** The participants in lock order, or the first foreign recipe found among `children`. */
  sort(children: readonly string[]): { sorted: string[] } | { foreign: string } {
    const previous = this.#known;
    const known = new Map<string, ParsedName>();
    const parsed: Participant[] = [];
    for (const name of children) {
      let entry = previous.get(name);
      if (entry === undefined) {
        const foreign = this.#own === undefined ? undefined : foreignRecipeOf(name, this.#own);
        entry = {
          sequence: foreign === undefined ? lockSequence(name, this.#markers) : undefined,
          foreign,
        };
      }
      known.set(name, entry);
      if (entry.foreign !== undefined) return { foreign: entry.foreign };
      if (entry.sequence !== undefined) parsed.push({ name, sequence: entry.sequence });
    }
    this.#known = known;
    return { sorted: sortParsed(parsed) };
  }
}
