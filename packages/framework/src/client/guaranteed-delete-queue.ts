import type { Observable, Subscription } from 'rxjs';
import type { ClientContext } from './client-context.js';
import { deleteNode } from './delete-node.js';
import { isNoNode, isRetryable } from '../errors/predicates.js';
import type { Logger } from '../logging/logger.js';
import { findProtectedNode } from '../paths/protected-name.js';
import { joinPath } from '../paths/zk-paths.js';
import { ConnectionState, type ConnectionStateChange } from '../state/connection-state.js';
import type { ZooKeeperOperations } from '../zk/zookeeper-operations.js';

/** Background work the queue keeps trying: all on server paths (namespace applied). */
export type GuaranteedDeleteTask =
  /** A `delete(path, { guaranteed: true })` whose outcome is unknown. */
  | {
      readonly kind: 'delete';
      readonly path: string;
      readonly version: number;
      readonly deleteChildren: boolean;
    }
  /** A protected create that gave up: whatever node carries its UUID must go. */
  | { readonly kind: 'protected'; readonly parentPath: string; readonly uuid: string };

/** Options of {@link GuaranteedDeleteQueue}. */
export interface GuaranteedDeleteQueueOptions {
  readonly ops: ZooKeeperOperations;
  readonly logger: Logger;
  /** Where a failure that retrying cannot fix goes (the unhandled-errors stream). */
  readonly report: (error: unknown, context: string) => void;
  /** Every connect/reconnect retries all pending tasks at once. */
  readonly connectionStateChanges: Observable<ConnectionStateChange>;
  /** Aborting drops every task and stops all timers. */
  readonly closedSignal: AbortSignal;
  /** The delay after the first failed background try; doubled per failure. Default 1000. */
  readonly baseDelayMs?: number | undefined;
  /** The longest delay between tries. Default 30000. */
  readonly maxDelayMs?: number | undefined;
}

interface Entry {
  readonly key: string;
  readonly task: GuaranteedDeleteTask;
  failures: number;
  timer: NodeJS.Timeout | undefined;
  running: boolean;
}

/**
 * Curator's `FailedDeleteManager`: deletes whose outcome the caller could not learn (the retry
 * policy gave up on a retryable error) are retried in the background until the node is gone.
 * NO_NODE counts as success. A task is tried at once, then after each failure with exponential
 * backoff, and immediately on every CONNECTED/RECONNECTED; it ends on success, on an error that
 * retrying cannot fix (reported to the unhandled-errors stream), or when the client closes.
 */
export class GuaranteedDeleteQueue {
  readonly #options: GuaranteedDeleteQueueOptions;
  readonly #logger: Logger;
  readonly #entries = new Map<string, Entry>();
  readonly #idleWaiters: (() => void)[] = [];
  readonly #subscription: Subscription;

  constructor(options: GuaranteedDeleteQueueOptions) {
    this.#options = options;
    this.#logger = options.logger.child({ component: 'GuaranteedDeleteQueue' });
    this.#subscription = options.connectionStateChanges.subscribe((change) => {
      if (
        change.state === ConnectionState.CONNECTED ||
        change.state === ConnectionState.RECONNECTED
      ) {
        for (const entry of this.#entries.values()) this.#schedule(entry, 0);
      }
    });
    if (options.closedSignal.aborted) this.#close();
    else options.closedSignal.addEventListener('abort', () => this.#close(), { once: true });
  }

  /** Tasks not yet done. */
  get size(): number {
    return this.#entries.size;
  }

  /** Resolves once no task is pending (at once when none is). */
  whenIdle(): Promise<void> {
    if (this.#entries.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Queues a task and tries it at once; a task for the same node already queued is kept. */
  add(task: GuaranteedDeleteTask): void {
    if (this.#options.closedSignal.aborted) return;
    const key = task.kind === 'delete' ? task.path : `${task.parentPath}\u0000${task.uuid}`;
    if (this.#entries.has(key)) return;
    const entry: Entry = { key, task, failures: 0, timer: undefined, running: false };
    this.#entries.set(key, entry);
    this.#logger.debug('guaranteed delete queued', { path: describe(task) });
    this.#schedule(entry, 0);
  }

  #schedule(entry: Entry, delayMs: number): void {
    if (entry.running) return;
    clearTimeout(entry.timer);
    // Not unref'd: the connection keeps the process alive anyway, and close() clears the timers.
    entry.timer = setTimeout(() => void this.#run(entry), delayMs);
  }

  async #run(entry: Entry): Promise<void> {
    entry.timer = undefined;
    entry.running = true;
    try {
      await this.#attempt(entry.task);
      this.#logger.debug('guaranteed delete done', { path: describe(entry.task) });
      this.#remove(entry);
    } catch (error) {
      if (this.#options.closedSignal.aborted) return;
      if (isRetryable(error)) {
        entry.failures++;
        const { baseDelayMs = 1000, maxDelayMs = 30_000 } = this.#options;
        const delayMs = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(entry.failures - 1, 30));
        this.#logger.debug('guaranteed delete failed; will retry', {
          path: describe(entry.task),
          failures: entry.failures,
          delayMs,
          error,
        });
        entry.running = false;
        this.#schedule(entry, delayMs);
        return;
      }
      this.#remove(entry);
      this.#options.report(error, `guaranteed delete ${describe(entry.task)}`);
    } finally {
      entry.running = false;
    }
  }

  async #attempt(task: GuaranteedDeleteTask): Promise<void> {
    const { ops } = this.#options;
    if (task.kind === 'delete') {
      await deleteNode(ops, task.path, { ...task, quietly: true });
      return;
    }
    let children: string[];
    try {
      ({ children } = await ops.getChildren(task.parentPath));
    } catch (error) {
      if (isNoNode(error)) return;
      throw error;
    }
    const found = findProtectedNode(children, task.uuid);
    if (found !== undefined) {
      await deleteNode(ops, joinPath(task.parentPath, found), {
        version: -1,
        deleteChildren: false,
        quietly: true,
      });
    }
  }

  #remove(entry: Entry): void {
    clearTimeout(entry.timer);
    this.#entries.delete(entry.key);
    if (this.#entries.size === 0) {
      for (const resolve of this.#idleWaiters.splice(0)) resolve();
    }
  }

  #close(): void {
    this.#subscription.unsubscribe();
    for (const entry of this.#entries.values()) this.#remove(entry);
  }
}

function describe(task: GuaranteedDeleteTask): string {
  return task.kind === 'delete' ? task.path : joinPath(task.parentPath, `_c_${task.uuid}-*`);
}

const queues = new WeakMap<ClientContext, GuaranteedDeleteQueue>();

/** The one queue of a client and all its namespace views (created on first use). */
export function guaranteedDeleteQueueFor(context: ClientContext): GuaranteedDeleteQueue {
  let queue = queues.get(context);
  if (queue === undefined) {
    queue = new GuaranteedDeleteQueue({
      ops: context.ops,
      logger: context.logger,
      report: (error, where) => context.reportUnhandledError(error, where),
      connectionStateChanges: context.connectionStateChanges,
      closedSignal: context.closedSignal,
    });
    queues.set(context, queue);
  }
  return queue;
}
