// What the demo reads from ZooKeeper: the live status line, and the final check that no task
// was lost or done twice. Everything here is read from the server, not from the workers' word.
import { isNoNode, type FrameworkClient } from '@zkrecipes/framework';
import type { LeaderSelector } from '@zkrecipes/leader';
import { assignPath, Paths, taskOfStatusNode } from './layout.js';

/** The pool at one moment. */
export interface PoolStatus {
  readonly master: string | undefined;
  readonly workers: readonly string[];
  readonly pending: number;
  readonly assigned: number;
  readonly done: number;
}

async function childrenOf(client: FrameworkClient, path: string): Promise<string[]> {
  try {
    return (await client.getChildren(path)).sort();
  } catch (error) {
    if (isNoNode(error)) return [];
    throw error;
  }
}

/** Tasks waiting in the queue, assigned and not done, and done. */
async function countTasks(
  client: FrameworkClient,
): Promise<{ pending: number; assigned: number; done: number }> {
  const pending = (await childrenOf(client, Paths.TASKS)).length;
  let assigned = 0;
  for (const worker of await childrenOf(client, Paths.ASSIGN)) {
    assigned += (await childrenOf(client, assignPath(worker))).length;
  }
  const done = (await childrenOf(client, Paths.STATUS)).length;
  return { pending, assigned, done };
}

/** Reads the pool's status; `observer` is a LeaderSelector that never starts (it only reads). */
export async function readStatus(
  client: FrameworkClient,
  observer: LeaderSelector,
): Promise<PoolStatus> {
  const master = (await observer.getLeader())?.id;
  const workers = await childrenOf(client, Paths.WORKERS);
  return { master, workers, ...(await countTasks(client)) };
}

/** The outcome of the final check. */
export interface PoolCheck {
  readonly ok: boolean;
  readonly lost: readonly string[];
  readonly doneTwice: readonly string[];
  readonly unknown: readonly string[];
  readonly pending: number;
  readonly assigned: number;
  /** Completions per worker, from the status nodes' data. */
  readonly doneBy: ReadonlyMap<string, number>;
}

/** Checks that each offered task was done exactly once and nothing is left over. */
export async function checkPool(
  client: FrameworkClient,
  offered: readonly string[],
): Promise<PoolCheck> {
  const completions = new Map<string, number>();
  const doneBy = new Map<string, number>();
  for (const node of await childrenOf(client, Paths.STATUS)) {
    const task = taskOfStatusNode(node);
    completions.set(task, (completions.get(task) ?? 0) + 1);
    const worker = (await client.getData(`${Paths.STATUS}/${node}`)).data.toString('utf8');
    doneBy.set(worker, (doneBy.get(worker) ?? 0) + 1);
  }
  const lost = offered.filter((task) => !completions.has(task));
  const doneTwice = offered.filter((task) => (completions.get(task) ?? 0) > 1);
  const known = new Set(offered);
  const unknown = [...completions.keys()].filter((task) => !known.has(task));
  const { pending, assigned } = await countTasks(client);
  return {
    ok:
      lost.length === 0 &&
      doneTwice.length === 0 &&
      unknown.length === 0 &&
      pending === 0 &&
      assigned === 0,
    lost,
    doneTwice,
    unknown,
    pending,
    assigned,
    doneBy: new Map([...doneBy].sort(([a], [b]) => (a < b ? -1 : 1))),
  };
}
