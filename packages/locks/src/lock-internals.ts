// The algorithm every lock here shares (Curator's LockInternals), the semaphore's leases
// included: queue with an ephemeral sequential node, hold when the driver says so, otherwise
// watch one node ahead (a semaphore: its leases) and look again when it changes. The loop is
// #internalLockLoop. What differs from Curator is the number of round trips:
// - the create and the children read are sent back to back (ZooKeeper answers one session's
//   requests in order, so the read already sees our node): one round trip, not two;
// - acquire(0) reads first and answers false with that one read when anyone is ahead, leaving
//   no node and no watch behind;
// - when the node ahead is deleted, the hand-over is judged on the last look without it (see
//   QueueWatch.changeOf), not on a new read, wherever no node can join the queue ahead of ours.
// A verdict that says "holds" is granted only while the session is proven sound since the look
// it came from (ConnectionStream.isValidSince): every lock's one grant, checked here.
import {
  InvalidArgumentError,
  isClosed,
  joinPath,
  type FrameworkClient,
  type Logger,
} from '@zkrecipes/framework';
import {
  connectionStreamOf,
  untilAborted,
  type ConnectionStream,
} from '@zkrecipes/framework/recipe-support';
import type { AcquireLimits } from './acquire-limits.js';
import { HOLDS, type LockDriver } from './lock-driver.js';
import { ParticipantSorter, sortParticipants } from './lock-node-names.js';
import { releaseOwnNode, removeOwnNode, reportDeleteFailure } from './own-node.js';
import { listChildren, QueueWatch, type Listing } from './queue-watch.js';
import { NODE_VANISHED, VanishedRetries } from './retry-vanished.js';

/** How a lock uses the shared algorithm. */
export interface LockInternalsConfig {
  readonly driver: LockDriver;
  /** The name our nodes get after the protection prefix: `lock-`, `__READ__`, `__WRIT__`. */
  readonly lockName: string;
  /** How many may hold at once: 1 for a mutex, unlimited for readers. */
  readonly maxLeases: number;
  /** Data stored in our lock nodes (Curator's `getLockNodeBytes`). Default empty. */
  readonly data?: Uint8Array | undefined;
  /** Component name for the log. */
  readonly component: string;
  /** `releaseLock` returns once the delete is sent, without waiting for the answer. */
  readonly pipelineRelease?: boolean | undefined;
}

/** One attempt's parameters. */
export interface AttemptOptions {
  /** The acquire call's deadline, and the signal its requests and waits get. */
  readonly limits: AcquireLimits;
  /**
   * Create `<lockName><sortingSequence>` as a plain EPHEMERAL node instead of a sequential one
   * (Curator 5.5+: a write holder's read lock takes its write lock's place in line).
   */
  readonly sortingSequence?: string | undefined;
  /** The caller is let in whatever the queue says (a write holder taking the read lock). */
  readonly alwaysHolds?: boolean | undefined;
  /**
   * The token of the hold instead of our node's czxid: a read lock taken by a write holder
   * keeps the write hold's, since its node takes the write node's place in line.
   */
  readonly fencingToken?: bigint | undefined;
  /** The data of our node instead of the configured one (a revocable mutex's starts empty). */
  readonly data?: Uint8Array | undefined;
  /** Called with our node's path as soon as its create answered (a revocable mutex watches it). */
  readonly onCreated?: ((path: string) => void) | undefined;
  /**
   * Called when the attempt ends without the lock and deletes its node, with that delete:
   * settled once the server answered it (or the wait gave up, as a release's does), even when
   * the attempt itself does not wait because its signal aborted.
   */
  readonly onLetGo?: ((removed: Promise<void>) => void) | undefined;
  /** Told what the wait sees (LeaderSelector's leaderless time); it sends nothing itself. */
  readonly observer?: QueueObserver | undefined;
}

/**
 * @internal What an attempt's wait saw, for a recipe that measures it from the requests the
 * wait makes anyway: calls only, no request of its own, nothing awaited.
 */
export interface QueueObserver {
  /** A look at the queue (after our node was created) found `first` at its head; ours or not. */
  looked(first: string): void;
  /** The watch on the node ahead fired (its next look is already sent). */
  woke(): void;
}

/** A confirmed hold. */
export interface AcquiredLock {
  /** Our node, namespace-relative. */
  readonly path: string;
  /** Our node's czxid, from the create's reply (see `LockHold.fencingToken`). */
  readonly fencingToken: bigint;
  /** The connection stream's epoch read before the confirming request was sent. */
  readonly epoch: number;
}

/** Our node, as its create answered. */
interface OwnNode {
  readonly path: string;
  readonly czxid: bigint;
  /**
   * The session the node belongs to, read as the create's reply is handled. A node of an
   * earlier session can outlive our switch to a new one for a while (until the server expires
   * the old session), but it will vanish: the loop never holds or waits with it.
   */
  readonly session: bigint | undefined;
}

/** The shared lock algorithm; one per lock object. */
export class LockInternals {
  readonly #client: FrameworkClient;
  readonly #basePath: string;
  readonly #config: LockInternalsConfig;
  readonly #watch: ConnectionStream;
  readonly #logger: Logger;
  readonly #sorter: ParticipantSorter;
  /** How many may hold at once now: the config's, or the semaphore's limit as it changes. */
  #maxLeases: number;
  /** The attempts waiting now, for {@link setMaxLeases} to wake; only once it may be called. */
  #waiting: Set<QueueWatch> | undefined;

  constructor(client: FrameworkClient, basePath: string, config: LockInternalsConfig) {
    this.#client = client;
    this.#basePath = basePath;
    // Copied in one fixed order: the kinds of lock build their configs differently, and the
    // loop every lock shares should see a single object shape.
    this.#config = {
      driver: config.driver,
      lockName: config.lockName,
      maxLeases: config.maxLeases,
      data: config.data,
      component: config.component,
      pipelineRelease: config.pipelineRelease,
    };
    this.#maxLeases = config.maxLeases;
    this.#sorter = new ParticipantSorter(config.driver.recipe, config.driver.markers);
    this.#watch = connectionStreamOf(client);
    this.#logger = client.logger.child({ component: config.component, path: basePath });
  }

  get basePath(): string {
    return this.#basePath;
  }

  get connectionStream(): ConnectionStream {
    return this.#watch;
  }

  /**
   * Changes how many may hold at once (a semaphore sized by a shared count), and has every
   * attempt waiting now look again. A whole number from 0 to 0x3fffffff (a small integer: see
   * the read lock's UNCOUNTED_READERS). The first call, made before any attempt, starts keeping
   * track of the waiting attempts (other locks never pay for it).
   */
  setMaxLeases(maxLeases: number): void {
    this.#maxLeases = maxLeases;
    this.#waiting ??= new Set();
    for (const queue of this.#waiting) queue.nudge();
  }

  /**
   * Queues and waits (Curator's `attemptLock`). Resolves the hold, or undefined when acquire(0)
   * found the lock taken or the deadline passed before a wait. Rejects with the reason of
   * `limits.signal` when it aborts (the deadline passed, the caller gave up, acquire(0)'s
   * connection went). Whatever way it ends without the lock, the node it queued with is
   * deleted (sent at once; guaranteed).
   */
  async attemptLock(options: AttemptOptions): Promise<AcquiredLock | undefined> {
    const { limits } = options;
    limits.throwIfAborted();
    if (limits.tryOnly && options.alwaysHolds !== true) {
      // One read decides when someone is there: no node to delete, no watch to leave. Raced
      // against the connection instead of given its signal (the framework would combine that
      // with its own: about 20 µs of CPU): if the connection goes first, the answer is false
      // at once, and the read's late answer, if any, is dropped.
      const read = untilAborted(
        listChildren(this.#client, this.#basePath, undefined),
        limits.signal,
      );
      const sorted = this.#participants(await read);
      if (this.#config.driver.blocked(sorted, this.#maxLeases)) return undefined;
    }
    let retries: VanishedRetries | undefined;
    for (;;) {
      const outcome = await this.attemptOnce(options);
      if (outcome !== NODE_VANISHED) return outcome;
      retries ??= new VanishedRetries(this.#client, {
        path: this.#basePath,
        logger: this.#logger,
        signal: limits.signal,
      });
      await retries.afterVanished();
    }
  }

  /**
   * One pass of {@link attemptLock} without the acquire(0) read: queues once and runs the
   * loop. NODE_VANISHED when our node went with its session; the caller decides whether to
   * queue again. Our node is deleted unless it holds.
   */
  async attemptOnce(
    options: AttemptOptions,
  ): Promise<AcquiredLock | undefined | typeof NODE_VANISHED> {
    const { limits } = options;
    using queue = new QueueWatch(
      this.#client,
      this.#basePath,
      this.#watch,
      limits.signal,
      this.#waiting,
    );
    // Our create and the first look at the queue go out back to back: one round trip. A create
    // that fails or is aborted in flight leaves nothing: the framework removes the node of a
    // protected create whose outcome it could not learn. The create is sent from this frame
    // (docs/benchmarks.md, request frames).
    const { sortingSequence } = options;
    const created = this.#client.create(
      joinPath(this.#basePath, this.#config.lockName + (sortingSequence ?? '')),
      {
        mode: sortingSequence === undefined ? 'EPHEMERAL_SEQUENTIAL' : 'EPHEMERAL',
        protection: true,
        createParents: true,
        data: options.data ?? this.#config.data,
        stat: true,
        signal: limits.signal,
      },
    );
    const first = queue.list().catch(() => undefined); // the loop looks again and meets the error
    const { path, stat } = await created;
    options.onCreated?.(path);
    const node: OwnNode = { path, czxid: stat.czxid, session: this.#client.sessionId };
    try {
      const outcome = await this.#internalLockLoop(node, await first, queue, options);
      if (outcome === undefined || outcome === NODE_VANISHED) await this.#letGo(node, options);
      return outcome;
    } catch (error) {
      await this.#letGo(node, options);
      throw error;
    }
  }

  /**
   * Deletes a held node (guaranteed: a failure is retried in the background), waiting for the
   * answer only while connected: an outage hands it to the background at once. With
   * `pipelineRelease` it returns without waiting for the answer at all: requests of this
   * client that follow (a new acquire) are sent after it and answered in order, so they see it
   * done; other clients see the lock free a round trip later than the caller resumes.
   */
  async releaseLock(path: string): Promise<void> {
    if (this.#config.pipelineRelease !== true) return releaseOwnNode(this.#client, path);
    this.#client.delete(path, { guaranteed: true, quietly: true }).catch((error: unknown) => {
      // A closed client ended the session, and the node with it: nothing to say.
      if (isClosed(error)) return;
      // Nobody awaits it: say so. Retryable failures go on in the background until the node
      // is gone; anything else leaves the node until the session ends.
      reportDeleteFailure(this.#client, this.#logger, error, `releasing ${path}`);
    });
  }

  /**
   * The participants' full paths in lock order (Curator's `getParticipantNodes`); the read is
   * given `signal`.
   */
  async participantNodes(signal: AbortSignal | undefined): Promise<string[]> {
    const children = await listChildren(this.#client, this.#basePath, signal);
    const sorted = sortParticipants(children, this.#config.driver.markers);
    return sorted.map((name) => joinPath(this.#basePath, name));
  }

  /**
   * Curator's `internalLockLoop`: list and sort the children and find our node; hold when the
   * driver says so (within `maxLeases`), otherwise watch what stands in the way (the node
   * ahead), wait until it changes or the deadline passes, and look again. Undefined when the
   * time ran out before a wait (acquire(0): at once); the caller then deletes our node.
   */
  async #internalLockLoop(
    node: OwnNode,
    first: Listing | undefined,
    queue: QueueWatch,
    options: AttemptOptions,
  ): Promise<AcquiredLock | undefined | typeof NODE_VANISHED> {
    const { limits, alwaysHolds } = options;
    const { driver } = this.#config;
    const ourName = node.path.slice(node.path.lastIndexOf('/') + 1);
    // The first look can predate our node (its create was retried, or made the parents): look
    // once more before taking our node for gone.
    let { epoch, children } =
      first?.children.includes(ourName) === true ? first : await queue.list();
    for (;;) {
      const sorted = this.#participants(children);
      if (sorted[0] !== undefined) options.observer?.looked(sorted[0]);
      // Gone although we never deleted it, or left behind by a session we no longer have: it
      // went (or will go) with its session. Curator's NoNodeException: queue again.
      if (!sorted.includes(ourName) || this.#client.sessionId !== node.session) {
        return NODE_VANISHED;
      }
      // Read at each look: a semaphore's limit may have changed while it waited.
      const maxLeases = this.#maxLeases;
      const verdict = alwaysHolds === true ? HOLDS : driver.verdict(sorted, ourName, maxLeases);
      // Granted only while the session is proven sound since this look: news read after a
      // freeze the client has not noticed yet (the deletion of the node ahead, waiting in the
      // socket while the server expired our session and someone else took the lock) says
      // "yours" about a node that may be gone.
      if (verdict.holds && this.#watch.isValidSince(epoch)) {
        return { path: node.path, fencingToken: options.fencingToken ?? node.czxid, epoch };
      }
      if (limits.expired) return undefined;
      if (verdict.holds) {
        // Look again: the read waits for a connection; its answer proves the session (and
        // the look is judged anew), or our node turns out gone with it and we queue again.
        this.#logger.debug('our turn came while the session was unproven; looking again');
        ({ epoch, children } = await queue.list());
        continue;
      }
      const holdsWithout = driver.judgesDeletion
        ? (gone: string): string[] | undefined => {
            const rest = sorted.filter((name) => name !== gone);
            return driver.verdict(rest, ourName, maxLeases).holds ? rest : undefined;
          }
        : undefined;
      ({ epoch, children } = await queue.changeOf(verdict.watch, options.observer, holdsWithout));
    }
  }

  #participants(children: readonly string[]): string[] {
    const result = this.#sorter.sort(children);
    if ('foreign' in result) {
      const { recipe } = this.#config.driver;
      throw new InvalidArgumentError(
        `${this.#basePath} is used by ${result.foreign}; an ${recipe} cannot share its path`,
        { path: this.#basePath },
      );
    }
    return result.sorted;
  }

  /** Removes a node we queued with but do not hold, waiting only while the call's time lasts. */
  #letGo(node: OwnNode, options: AttemptOptions): Promise<void> {
    return removeOwnNode(this.#client, node.path, {
      logger: this.#logger,
      signal: options.limits.signal,
      onRemoving: options.onLetGo,
    });
  }
}
