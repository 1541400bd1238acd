// Where the worker pool keeps its state (all under the demo's namespace), the task names, and
// the messages a worker process sends to the demo. The master-worker pattern of the ZooKeeper
// book: workers, tasks, assignments, status.
import { joinPath } from '@zkrecipes/framework';

export const Paths = {
  /** GroupMember: one ephemeral node per live worker, named by its id. */
  WORKERS: '/workers',
  /** LeaderSelector: the workers' election for the master. */
  MASTER: '/master',
  /** DistributedQueue: the tasks nobody has been given yet. */
  TASKS: '/tasks',
  /** The queue's safe-mode locks: an item is locked while the master assigns it. */
  TASK_LOCKS: '/task-locks',
  /** `/claims/<task>`: made in the same transaction as a task's first assignment, so a task
   * the queue delivers twice (a master died between assigning and removing it) is seen. */
  CLAIMS: '/claims',
  /** `/assign/<worker>/<task>`: tasks given to a worker and not done yet. */
  ASSIGN: '/assign',
  /** `/status/<task>-<seq>`: one node per completion, holding the worker's id. */
  STATUS: '/status',
} as const;

/** A worker's assignment folder. */
export function assignPath(worker: string, task?: string): string {
  return task === undefined ? joinPath(Paths.ASSIGN, worker) : joinPath(Paths.ASSIGN, worker, task);
}

/** `task-0007` for 7. */
export function taskName(index: number): string {
  return `task-${String(index).padStart(4, '0')}`;
}

/** The task of a status node: `task-0007-0000000012` -> `task-0007`. */
export function taskOfStatusNode(name: string): string {
  return name.replace(/-\d{10}$/, '');
}

/** What a worker process tells the demo (over the IPC channel). */
export type WorkerMessage =
  | { readonly type: 'ready'; readonly worker: string; readonly pid: number }
  | { readonly type: 'master'; readonly worker: string; readonly pid: number }
  | {
      readonly type: 'moved';
      readonly task: string;
      readonly from: string;
      readonly to: string;
      readonly worker: string;
    }
  | { readonly type: 'done'; readonly task: string; readonly worker: string }
  | { readonly type: 'dropped'; readonly task: string; readonly worker: string };

/** What the demo tells a worker process. */
export type DemoMessage = { readonly type: 'stop' };

/** How a worker process is configured (its one argument, as JSON). */
export interface WorkerConfig {
  readonly id: string;
  readonly connectString: string;
  readonly namespace: string;
  readonly sessionTimeoutMs: number;
  /** Each task takes a random time between these (simulated work). */
  readonly workMs: readonly [number, number];
  /** How many unfinished tasks a worker may hold; the rest wait in the queue. */
  readonly capacity: number;
}
