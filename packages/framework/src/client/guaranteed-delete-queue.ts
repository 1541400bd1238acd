import type { Observable, Subscription } from 'rxjs';
import type { ClientContext } from './client-context.js';
import { deleteNode } from './delete-node.js';
import { isNoNode } from '../errors/predicates.js';
import type { Logger } from '../logging/logger.js';
import { findProtectedNode } from '../paths/protected-name.js';
import { joinPath } from '../paths/zk-paths.js';
import { BackgroundRetry } from '../retry/background-retry.js';
import { BoundedExponentialBackoffRetry } from '../retry/bounded-exponential-backoff-retry.js';
import type { RetryPolicy } from '../retry/retry-policy.js';
import { ConnectionState, type ConnectionStateChange } from '../state/connection-state.js';
import type { ZooKeeperOperations } from '../zk/zookeeper-operations.js';
import { onAbort } from '../async/on-abort.js';

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
  /**
   * The delays between background tries of one task. Default: {@link DEFAULT_DELETE_RETRY_POLICY},
   * which never stops. Not the client's policy: that one bounds a caller's wait, while a
   * guaranteed delete must outlast any outage.
   */
  readonly retryPolicy?: RetryPolicy | undefined;
}

/**
 * 1 s after the first failure, growing to at most 30 s apart, for as long as it takes. Until
 * BackgroundRetry the queue doubled a fixed 1 s (1, 2, 4, ... 30 s); the policy draws each delay
 * at random around the same doubling (1-3 s, then 1-7 s, ...), so clients that failed together
 * do not retry in lockstep.
 */
export const DEFAULT_DELETE_RETRY_POLICY: RetryPolicy = new BoundedExponentialBackoffRetry({
  baseSleepMs: 1000,
  maxSleepMs: 30_000,
  maxRetries: Number.MAX_SAFE_INTEGER,
});

interface Entry {
  readonly key: string;
  readonly task: GuaranteedDeleteTask;
  readonly retry: BackgroundRetry;
}

/**
 * Curator's `FailedDeleteManager`: deletes whose outcome the caller could not learn (the retry
 * policy gave up on a retryable error) are retried in the background until the node is gone.
 * NO_NODE counts as success. A task is tried at once, then after each failure as the queue's
 * retry policy says, and immediately on every CONNECTED/RECONNECTED; it ends on success, on an
 * error that retrying cannot fix (reported to the unhandled-errors stream), or when the client
 * closes.
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
        for (const entry of this.#entries.values()) entry.retry.kick();
      }
    });
    if (options.closedSignal.aborted) this.#close();
    else onAbort(options.closedSignal, () => this.#close());
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
    const path = describe(task);
    const retry: BackgroundRetry = new BackgroundRetry(
      async () => {
        await this.#attempt(task);
        this.#logger.debug('guaranteed delete done', { path });
        this.#remove(entry);
      },
      {
        policy: this.#options.retryPolicy ?? DEFAULT_DELETE_RETRY_POLICY,
        signal: this.#options.closedSignal,
        // As before BackgroundRetry, not unref'd: a live connection keeps the process alive
        // anyway, and close() (the closed signal) stops the timers.
        unref: false,
        onRetry: ({ retryCount, delayMs, error }) => {
          this.#logger.debug('guaranteed delete failed; will retry', {
            path,
            failures: retryCount + 1,
            delayMs,
            error,
          });
        },
        onError: (error) => {
          this.#remove(entry);
          this.#options.report(error, `guaranteed delete ${path}`);
        },
      },
    );
    const entry: Entry = { key, task, retry };
    this.#entries.set(key, entry);
    this.#logger.debug('guaranteed delete queued', { path });
    retry.kick();
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
    entry.retry.close();
    if (this.#entries.get(entry.key) !== entry) return;
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
      connectionStateChanges: context.connectionState.changes,
      closedSignal: context.closedSignal,
    });
    queues.set(context, queue);
  }
  return queue;
}
