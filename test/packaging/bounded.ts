// A fan-out of child processes kept to a few at a time: each compiler or program run wants a
// core and a few hundred MB.
import { availableParallelism } from 'node:os';

/**
 * How many child processes a packaging test runs side by side: half the cores, since the test
 * runner runs two files at a time and a file that took every core would starve the other one's
 * commands into their timeouts.
 */
export const PARALLEL = Math.max(1, Math.min(4, Math.floor(availableParallelism() / 2)));

/** Runs `tasks` at most `limit` at a time; their results in order. */
export async function bounded<T>(
  tasks: readonly (() => Promise<T>)[],
  limit = PARALLEL,
): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}
