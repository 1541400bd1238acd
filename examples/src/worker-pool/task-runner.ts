// A worker's own job: do the tasks under /assign/<worker>, one at a time, and record each as
// done. Recording is one transaction that deletes the assignment and creates the status node,
// so a task is recorded at most once per assignment: when the master moved the task away in
// the meantime (it thought this worker dead), the delete fails and nothing is recorded.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  isNodeExists,
  isNoNode,
  op,
  TransactionFailedError,
  type FrameworkClient,
  type Logger,
} from '@zkrecipes/framework';
import { assignPath, Paths, type WorkerMessage } from './layout.js';

/** Options of {@link TaskRunner}. */
export interface TaskRunnerOptions {
  readonly worker: string;
  readonly workMs: readonly [number, number];
  readonly report: (message: WorkerMessage) => void;
}

/** Runs one worker's assigned tasks until stopped. */
export class TaskRunner {
  readonly #client: FrameworkClient;
  readonly #options: TaskRunnerOptions;
  readonly #logger: Logger;
  readonly #stop = new AbortController();
  #running: Promise<void> | undefined;

  constructor(client: FrameworkClient, options: TaskRunnerOptions) {
    this.#client = client;
    this.#options = options;
    this.#logger = client.logger.child({ component: 'TaskRunner', worker: options.worker });
  }

  /** Makes this worker's assignment folder and starts working. */
  async start(): Promise<void> {
    try {
      await this.#client.create(assignPath(this.#options.worker), { createParents: true });
    } catch (error) {
      if (!isNodeExists(error)) throw error;
    }
    this.#running = this.#loop();
  }

  /** Stops after the task at hand (its work is abandoned; the task stays assigned). */
  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#running;
  }

  async #loop(): Promise<void> {
    const { signal } = this.#stop;
    while (!signal.aborted) {
      try {
        const changed = new AbortController();
        const tasks = await this.#client.getChildren(assignPath(this.#options.worker), {
          watch: () => changed.abort(),
          signal,
        });
        if (tasks.length === 0) {
          await untilAborted(AbortSignal.any([changed.signal, signal]));
          continue;
        }
        for (const task of tasks.sort()) {
          if (signal.aborted) break;
          await this.#execute(task, signal);
        }
      } catch (error) {
        if (signal.aborted) break;
        this.#logger.warn('reading assignments failed; trying again', { error });
        await sleep(200, undefined, { signal }).catch(() => undefined);
      }
    }
  }

  async #execute(task: string, signal: AbortSignal): Promise<void> {
    const { worker, workMs, report } = this.#options;
    const [min, max] = workMs;
    // The work itself (simulated). Stopping abandons it: the task stays assigned.
    await sleep(min + Math.random() * (max - min), undefined, { signal });
    try {
      await this.#client.transaction([
        op.delete(assignPath(worker, task)),
        op.create(`${Paths.STATUS}/${task}-`, {
          mode: 'PERSISTENT_SEQUENTIAL',
          data: Buffer.from(worker),
        }),
      ]);
      report({ type: 'done', task, worker });
    } catch (error) {
      if (error instanceof TransactionFailedError && error.failedOpIndex === 0 && isNoNode(error)) {
        report({ type: 'dropped', task, worker }); // moved to another worker meanwhile
        return;
      }
      throw error;
    }
  }
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
