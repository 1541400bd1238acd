// The master's job while it leads: take tasks from the queue and assign them to live workers
// with room, and move the tasks of workers that died to live ones. Every step is one atomic
// transaction, so a master killed at any instant leaves each task in exactly one place: in the
// queue (its lock died with the master's session, so the next master gets it again), or
// claimed and assigned to one worker.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  isNodeExists,
  isNoNode,
  op,
  type FrameworkClient,
  type Logger,
} from '@zkrecipes/framework';
import type { GroupMember } from '@zkrecipes/group';
import { DistributedQueue, stringSerializer } from '@zkrecipes/queues';
import { assignPath, Paths, type WorkerMessage } from './layout.js';

/** Options of {@link Master}. */
export interface MasterOptions {
  readonly worker: string;
  readonly capacity: number;
  readonly report: (message: WorkerMessage) => void;
}

const SWEEP_EVERY_MS = 250;

/** What a worker process runs as its LeaderSelector's takeLeadership. */
export class Master {
  readonly #client: FrameworkClient;
  readonly #group: GroupMember;
  readonly #options: MasterOptions;
  readonly #logger: Logger;

  constructor(client: FrameworkClient, group: GroupMember, options: MasterOptions) {
    this.#client = client;
    this.#group = group;
    this.#options = options;
    this.#logger = client.logger.child({ component: 'Master', worker: options.worker });
  }

  /** Leads until `signal` aborts (SUSPENDED, LOST, or the process stopping). */
  async lead(signal: AbortSignal): Promise<void> {
    const queue = new DistributedQueue<string>(this.#client, Paths.TASKS, {
      serializer: stringSerializer(),
      lockPath: Paths.TASK_LOCKS, // safe mode: an item leaves the queue only once assigned
    });
    await queue.start();
    const sweeping = this.#sweep(signal);
    try {
      for await (const task of queue.items({ signal })) await this.#assign(task, signal);
    } catch (error) {
      if (!signal.aborted) throw error;
    } finally {
      await queue.close();
      await sweeping;
    }
  }

  /** Assigns a task, at most once even if the queue delivers it again. */
  async #assign(task: string, signal: AbortSignal): Promise<void> {
    for (;;) {
      const worker = await this.#pickWorker(signal);
      try {
        await this.#client.transaction([
          op.create(`${Paths.CLAIMS}/${task}`),
          op.create(assignPath(worker, task), { data: Buffer.from(task) }),
        ]);
        return;
      } catch (error) {
        // Claimed already: an earlier master assigned it and died before the queue let go.
        if (isNodeExists(error) && (await this.#client.exists(`${Paths.CLAIMS}/${task}`))) return;
        // The worker's folder is not there (yet): pick again.
        if (!isNoNode(error)) throw error;
      }
    }
  }

  /** The live worker with the fewest unfinished tasks, waiting until one has room. */
  async #pickWorker(signal: AbortSignal): Promise<string> {
    for (;;) {
      signal.throwIfAborted();
      let best: { worker: string; load: number } | undefined;
      for (const worker of this.#group.getCurrentMembers().keys()) {
        const load = await this.#load(worker);
        if (load !== undefined && load < (best?.load ?? this.#options.capacity)) {
          best = { worker, load };
        }
      }
      if (best !== undefined) return best.worker;
      // Everyone is busy: the tasks wait in the queue, where the next master finds them.
      await sleep(50, undefined, { signal });
    }
  }

  async #load(worker: string): Promise<number | undefined> {
    try {
      return (await this.#client.getChildren(assignPath(worker))).length;
    } catch (error) {
      if (isNoNode(error)) return undefined;
      throw error;
    }
  }

  /** Moves the tasks of workers that left the group (their sessions ended) to live workers. */
  async #sweep(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        const live = this.#group.getCurrentMembers();
        for (const worker of await this.#client.getChildren(Paths.ASSIGN)) {
          if (live.has(worker)) continue;
          for (const task of await this.#client.getChildren(assignPath(worker))) {
            const to = await this.#pickWorker(signal);
            await this.#client.transaction([
              op.delete(assignPath(worker, task)),
              op.create(assignPath(to, task), { data: Buffer.from(task) }),
            ]);
            this.#options.report({
              type: 'moved',
              task,
              from: worker,
              to,
              worker: this.#options.worker,
            });
          }
        }
        await sleep(SWEEP_EVERY_MS, undefined, { signal });
      } catch (error) {
        if (signal.aborted) return;
        this.#logger.warn('moving orphaned tasks failed; trying again', { error });
        await sleep(SWEEP_EVERY_MS, undefined, { signal }).catch(() => undefined);
      }
    }
  }
}
