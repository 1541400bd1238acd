import { randomUUID } from 'node:crypto';
import {
  ClosedError,
  type FrameworkClient,
  IllegalStateError,
  isNodeExists,
  isOutcomeUnknown,
  type IterableObservable,
  joinPath,
  type Logger,
  type RecipeError,
  type RecipeState,
  type SignalOptions,
  iterableObservable,
} from '@zkrecipes/framework';
import {
  assertClientStarted,
  checkClient,
  checkSignalOptions,
  RearmableWatch,
  reportRecipeFailure,
  whileConnected,
} from '@zkrecipes/framework/recipe-support';
import { LeaderLatch } from '@zkrecipes/leader';
import pLimit from 'p-limit';
import { Subject } from 'rxjs';
import type { DistributedQueue } from './distributed-queue.js';
import {
  type QueueAllocator,
  type QueueSharderOptions,
  type ResolvedPolicies,
  resolveSharderOptions,
  type ShardQueue,
} from './queue-sharder-options.js';

/** A shard's node: `queue-` and a UUID (Curator's QUEUE_PREFIX + UUID.randomUUID()). */
export const SHARD_PREFIX = 'queue-';
const SHARD_NAME = /^queue-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Size reads of one check in flight at once. */
const READ_CONCURRENCY = 8;
/** A check stops waiting for answers after this long (or its period, if longer). */
const MIN_CHECK_WAIT_MS = 5000;

/**
 * A facade over several queues (Curator's `QueueSharder`): items go to one of the shards under
 * `queuePath`, and when a shard holds `newQueueThreshold` items or more, the sharder that leads
 * (a LeaderLatch at `leaderPath`) adds a shard, up to `maxQueues`. Shards are `queue-<uuid>`
 * children of the queue path, each a queue of its own (a DistributedQueue by default), so Java
 * Curator sharders and these share one sharded queue. Order holds within a shard, not across.
 *
 * ```ts
 * const sharder = new QueueSharder(client, '/app/jobs', '/app/jobs-leader', {
 *   policies: { newQueueThreshold: 1000 },
 *   queueOptions: { serializer: jsonSerializer<Job>(), consumer: (job) => run(job) },
 * });
 * await sharder.start();
 * await sharder.getQueue().put({ id: 1 });
 * ```
 */
export class QueueSharder<T = Buffer, Q extends ShardQueue = DistributedQueue<T>> {
  readonly #client: FrameworkClient;
  readonly #path: string;
  readonly #policies: ResolvedPolicies;
  readonly #allocator: QueueAllocator<Q>;
  readonly #logger: Logger;
  readonly #latch: LeaderLatch;
  /** Aborted by close(): every request and start of the sharder stops waiting. */
  readonly #closer = new AbortController();
  /** Every queue made (started or starting), by shard path: close() closes them all. */
  readonly #allocated = new Map<string, Q>();
  /** The started shards, in the order learned. */
  readonly #queues = new Map<string, Q>();
  /** Started shards below the threshold (Curator's preferredQueues). */
  readonly #preferred = new Set<string>();
  /** Shard starts in flight. */
  readonly #starting = new Map<string, Promise<void>>();
  /** Foreign children warned about once. */
  readonly #ignored = new Set<string>();
  readonly #watch = new RearmableWatch(() => this.#onChildrenChanged());
  readonly #errors = new Subject<RecipeError>();
  readonly #errorStream = iterableObservable(this.#errors.asObservable());
  readonly #limit = pLimit(READ_CONCURRENCY);
  #state: RecipeState = 'LATENT';
  #timer: NodeJS.Timeout | undefined;
  #checking: Promise<void> | undefined;
  #refreshing: Promise<void> | undefined;
  #refreshAgain = false;
  #warnedAtMax = false;

  /**
   * `queuePath` holds the shards; `leaderPath` (apart from it: every child of the queue path is
   * a shard) the latch that picks the sharder that adds shards. Java sharders sharing the queue
   * must use the same two paths. Bad input throws InvalidArgumentError.
   */
  constructor(
    client: FrameworkClient,
    queuePath: string,
    leaderPath: string,
    options: QueueSharderOptions<T, Q> = {},
  ) {
    checkClient('QueueSharder', client);
    const { policies, allocator } = resolveSharderOptions(queuePath, leaderPath, options);
    this.#client = client;
    this.#path = queuePath;
    this.#policies = policies;
    this.#allocator = allocator;
    this.#logger = client.logger.child({ component: 'QueueSharder', path: queuePath });
    this.#latch = new LeaderLatch(client, leaderPath);
  }

  /** LATENT before start(), STARTED, then CLOSED. */
  get state(): RecipeState {
    return this.#state;
  }

  /** The path that holds the shards. */
  get path(): string {
    return this.#path;
  }

  /** Whether this sharder is the one that adds shards now (it leads at the leader path). */
  get isLeader(): boolean {
    return this.#latch.hasLeadership();
  }

  /** Background failures (a shard that would not start, a check that failed), as a stream. */
  get errors(): IterableObservable<RecipeError> {
    return this.#errorStream;
  }

  /**
   * Creates the queue path (a container, as Curator does), starts a queue for every shard there
   * (or creates `numberOfQueues` shards when there is none), joins the leader election and
   * starts the periodic check. Rejects when a shard's queue will not start, leaving the sharder
   * closed; aborting `signal` rejects with its reason. A second call rejects.
   */
  async start(options: SignalOptions = {}): Promise<void> {
    const signal = checkSignalOptions(options);
    if (this.#state !== 'LATENT') {
      throw new IllegalStateError(`start() while ${this.#state}: a sharder starts once`, {
        path: this.#path,
      });
    }
    assertClientStarted(this.#client, this.#path);
    this.#state = 'STARTED';
    try {
      const closer = this.#closer.signal;
      const ends = signal === undefined ? closer : AbortSignal.any([closer, signal]);
      const shards = await this.#ensureAndList(ends);
      if (shards.length === 0) {
        for (let i = 0; i < this.#policies.numberOfQueues; i += 1) shards.push(newShardName());
      }
      await Promise.all(shards.map((name) => this.#addShard(joinPath(this.#path, name), ends)));
      await this.#latch.start();
    } catch (error) {
      await this.close();
      throw error;
    }
    this.#schedule();
  }

  /**
   * One of the shards' queues, at random among those below the threshold at the last check (all
   * when none is): the choice cannot be relied on (Curator's `getQueue`). Throws
   * IllegalStateError unless started.
   */
  getQueue(): Q {
    if (this.#state !== 'STARTED') {
      throw new IllegalStateError(`getQueue() while ${this.#state}: start() the sharder first`, {
        path: this.#path,
      });
    }
    const keys = this.#preferred.size > 0 ? [...this.#preferred] : [...this.#queues.keys()];
    const key = keys[Math.floor(Math.random() * keys.length)];
    const queue = key === undefined ? undefined : this.#queues.get(key);
    if (queue === undefined) {
      throw new IllegalStateError('getQueue(): no shard has started', { path: this.#path });
    }
    return queue;
  }

  /** How many shards this sharder runs a queue for (Curator's `getShardQty`). */
  getShardQty(): number {
    return this.#queues.size;
  }

  /** The paths of those shards (Curator's `getQueuePaths`). */
  getQueuePaths(): string[] {
    return [...this.#queues.keys()];
  }

  /**
   * Stops the check, leaves the election and closes every shard's queue (each as its own
   * close() does: with the server unreachable at once). A second call does nothing.
   */
  async close(): Promise<void> {
    if (this.#state === 'CLOSED') return;
    this.#state = 'CLOSED';
    clearTimeout(this.#timer);
    this.#closer.abort(new ClosedError({ path: this.#path, detail: 'the sharder is closed' }));
    const queues = [...this.#allocated.values()];
    this.#allocated.clear();
    this.#queues.clear();
    this.#preferred.clear();
    this.#watch.disarm();
    const closes = await Promise.allSettled([
      this.#latch.close(),
      ...queues.map((queue) => queue.close()),
      this.#checking,
    ]);
    for (const closed of closes) {
      if (closed.status === 'rejected') this.#report(closed.reason, 'closing a shard', true);
    }
    this.#errors.complete();
  }

  /** Same as close(): for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** Creates the queue path unless there, and lists its shards with the children watch. */
  async #ensureAndList(signal: AbortSignal): Promise<string[]> {
    const [created] = await Promise.allSettled([
      this.#client.create(this.#path, { createParents: true, mode: 'CONTAINER', signal }),
    ]);
    if (
      created.status === 'rejected' &&
      !isNodeExists(created.reason) &&
      !isOutcomeUnknown(created.reason, 'NODE_EXISTS')
    ) {
      throw created.reason;
    }
    return this.#listShards(signal);
  }

  /** The shard names among the queue path's children, setting the watch unless it is armed. */
  async #listShards(signal: AbortSignal): Promise<string[]> {
    const attempt = this.#watch.next();
    const children = await this.#client.getChildren(this.#path, {
      watch: attempt?.watcher,
      signal,
    });
    attempt?.confirm();
    return children.filter((name) => {
      if (SHARD_NAME.test(name)) return true;
      if (!this.#ignored.has(name)) {
        this.#ignored.add(name);
        this.#logger.warn(`Foreign node in queue path, not a shard: ${name}`);
      }
      return false;
    });
  }

  /**
   * Makes and starts the queue of a shard unless one is made already; resolves once it started
   * (or the start in flight settles). Rejects when the allocator or the start fails: the shard
   * is then tried again at the next check.
   */
  #addShard(path: string, signal: AbortSignal): Promise<void> {
    if (this.#allocated.has(path)) return this.#starting.get(path) ?? Promise.resolve();
    let queue: Q;
    try {
      queue = this.#allocator(this.#client, path);
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the allocator's own error, passed on
      return Promise.reject(error);
    }
    this.#allocated.set(path, queue);
    const starting = this.#startShard(path, queue, signal);
    this.#starting.set(path, starting);
    const done = (): void => void this.#starting.delete(path);
    starting.then(done, done);
    return starting;
  }

  async #startShard(path: string, queue: Q, signal: AbortSignal): Promise<void> {
    try {
      await queue.start({ signal });
    } catch (error) {
      if (this.#allocated.get(path) === queue) this.#allocated.delete(path);
      await queue.close().catch(() => undefined);
      throw error;
    }
    // A close() meanwhile has closed it (it was allocated).
    if (this.#state !== 'STARTED') return;
    this.#queues.set(path, queue);
    this.#preferred.add(path);
    this.#logger.info(`shard ${path} started (${this.#queues.size} shards)`);
  }

  #schedule(): void {
    if (this.#state !== 'STARTED') return;
    this.#timer = setTimeout(() => {
      this.#checking = this.#check()
        .catch((error: unknown) => this.#report(error, 'checking the shards against the threshold'))
        .finally(() => {
          this.#checking = undefined;
          this.#schedule();
        });
    }, this.#policies.thresholdCheckMs);
  }

  /**
   * Curator's checkThreshold: learn every shard, read each one's size; a shard at or over the
   * threshold leaves the preferred set (and makes the leader add a shard, below maxQueues), one
   * at half of it or less comes back. Only while connected: it gives up when the connection
   * goes, and the next check starts over.
   */
  async #check(): Promise<void> {
    const { newQueueThreshold, maxQueues, thresholdCheckMs } = this.#policies;
    const connected = whileConnected(this.#client, {
      withinMs: Math.max(thresholdCheckMs, MIN_CHECK_WAIT_MS),
    });
    const signal = AbortSignal.any([this.#closer.signal, connected.signal]);
    try {
      if (connected.signal.aborted) return;
      const shards = await this.#listShards(signal);
      const learning = this.#learn(shards, signal);
      const sizes = await Promise.all(
        shards.map((name) =>
          this.#limit(() => this.#client.exists(joinPath(this.#path, name), { signal })),
        ),
      );
      await learning;
      let over: number | undefined;
      for (const [i, name] of shards.entries()) {
        const path = joinPath(this.#path, name);
        const count = sizes[i]?.numChildren;
        if (count === undefined || !this.#queues.has(path)) continue;
        if (count >= newQueueThreshold) {
          over = count;
          this.#preferred.delete(path);
        } else if (count <= Math.floor(newQueueThreshold / 2)) {
          this.#preferred.add(path);
        }
      }
      if (over === undefined || !this.#latch.hasLeadership() || this.#state !== 'STARTED') return;
      if (this.#allocated.size < maxQueues) {
        this.#warnedAtMax = false;
        this.#logger.info(
          `adding a shard: one holds ${over} items, the threshold is ${newQueueThreshold}`,
        );
        await this.#addShard(joinPath(this.#path, newShardName()), signal);
      } else if (!this.#warnedAtMax) {
        this.#warnedAtMax = true;
        this.#logger.warn(`Max number of queues (${maxQueues}) reached. Consider increasing it.`);
      }
    } catch (error) {
      // Cut short by the connection going (or by close()): the next check starts over.
      if (!signal.aborted) throw error;
      this.#logger.debug(`check cut short: ${String(error)}`);
    } finally {
      connected.dispose();
    }
  }

  /** Starts a queue for every shard not known yet; resolves once each settled (failures reported). */
  async #learn(shards: readonly string[], signal: AbortSignal): Promise<void> {
    const fresh = shards
      .map((name) => joinPath(this.#path, name))
      .filter((path) => !this.#allocated.has(path));
    const started = await Promise.allSettled(fresh.map((path) => this.#addShard(path, signal)));
    for (const result of started) {
      if (result.status === 'rejected') this.#report(result.reason, 'starting a shard');
    }
  }

  /** The children watch fired: list again (one listing at a time) and start the new shards. */
  #onChildrenChanged(): void {
    if (this.#state !== 'STARTED') return;
    if (this.#refreshing !== undefined) {
      this.#refreshAgain = true;
      return;
    }
    const refresh = async (): Promise<void> => {
      do {
        this.#refreshAgain = false;
        const signal = this.#closer.signal;
        await this.#learn(await this.#listShards(signal), signal);
      } while (this.#refreshAgain && this.#state === 'STARTED');
    };
    this.#refreshing = refresh()
      // The periodic check lists again (and sets the watch) anyway.
      .catch((error: unknown) => this.#logger.debug(`listing the shards failed: ${String(error)}`))
      .finally(() => (this.#refreshing = undefined));
  }

  /** Reports a background failure, unless it is only the sharder's own close. */
  #report(error: unknown, context: string, always = false): void {
    if (!always && this.#state !== 'STARTED') return;
    reportRecipeFailure(this.#client, this.#errors, error, context);
  }
}

function newShardName(): string {
  return `${SHARD_PREFIX}${randomUUID()}`;
}
