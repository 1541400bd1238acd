// The algorithm every lock here shares (Curator's LockInternals): queue with an ephemeral
// sequential node, hold when the driver says so, otherwise watch one node ahead and look again
// when it goes. What differs from Curator is the number of round trips:
// - the create and the children read are sent back to back (ZooKeeper answers one session's
//   requests in order, so the read already sees our node): one round trip, not two;
// - acquire(0) reads first and answers false with that one read when anyone is ahead, leaving
//   no node and no watch behind.
import {
  InvalidArgumentError,
  isClosed,
  isNoNode,
  joinPath,
  NoNodeError,
  type FrameworkClient,
  type Logger,
} from '@zkrecipes/framework';
import type { AcquireLimits } from './acquire-limits.js';
import { ConnectionWatch } from './connection-watch.js';
import type { LockDriver } from './lock-driver.js';
import { ParticipantSorter, sortParticipants } from './lock-node-names.js';
import { releaseOwnNode, removeOwnNode } from './own-node.js';
import { sleepUnlessAborted, untilAborted, WakeWait } from './wait-for-wake.js';

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
}

/** A confirmed hold. */
export interface AcquiredLock {
  /** Our node, namespace-relative. */
  readonly path: string;
  /** Our node's czxid, from the create's reply (see `LockHold.fencingToken`). */
  readonly fencingToken: bigint;
  /** The ConnectionWatch epoch read before the confirming request was sent. */
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

/** A children read under way, with the ConnectionWatch epoch read just before it was sent. */
interface Reread {
  readonly epoch: number;
  readonly children: Promise<readonly string[]>;
}

/** Our node is gone although we never deleted it: its session ended while we waited. */
const NODE_VANISHED = Symbol('node vanished');

/** The shared lock algorithm; one per lock object. */
export class LockInternals {
  readonly #client: FrameworkClient;
  readonly #basePath: string;
  readonly #config: LockInternalsConfig;
  readonly #watch: ConnectionWatch;
  readonly #logger: Logger;
  readonly #sorter: ParticipantSorter;

  constructor(client: FrameworkClient, basePath: string, config: LockInternalsConfig) {
    this.#client = client;
    this.#basePath = basePath;
    this.#config = config;
    this.#sorter = new ParticipantSorter(config.driver.recipe, config.driver.markers);
    this.#watch = ConnectionWatch.of(client);
    this.#logger = client.logger.child({ component: config.component, path: basePath });
  }

  get basePath(): string {
    return this.#basePath;
  }

  get connectionWatch(): ConnectionWatch {
    return this.#watch;
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
      const read = untilAborted(this.#read(undefined), limits.signal);
      const sorted = this.#participants(await read);
      if (this.#config.driver.blocked(sorted, this.#config.maxLeases)) return undefined;
    }
    const startMs = performance.now();
    for (let retryCount = 0; ; retryCount++) {
      const outcome = await this.#attemptOnce(options);
      if (outcome !== NODE_VANISHED) return outcome;
      // Curator's behaviour: the node went with a session; queue again if the policy allows.
      const error = new NoNodeError({
        path: this.#basePath,
        detail: 'our lock node vanished (its session ended) while we waited',
      });
      const delayMs = this.#client.retryPolicy.nextDelayMs({
        retryCount,
        elapsedMs: performance.now() - startMs,
        error,
      });
      if (delayMs === undefined) throw error;
      this.#logger.info('lock node vanished while waiting; queueing again', { retryCount });
      await sleepUnlessAborted(delayMs, limits.signal);
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
      this.#logger.warn('releasing the lock failed', { lockPath: path, error });
    });
  }

  /** The participants' full paths in lock order (Curator's `getParticipantNodes`). */
  async participantNodes(): Promise<string[]> {
    const sorted = sortParticipants(await this.#read(undefined), this.#config.driver.markers);
    return sorted.map((name) => joinPath(this.#basePath, name));
  }

  async #attemptOnce(
    options: AttemptOptions,
  ): Promise<AcquiredLock | undefined | typeof NODE_VANISHED> {
    const epoch = this.#watch.epoch;
    const { limits } = options;
    // A create that fails or is aborted in flight leaves nothing: the framework removes the
    // node of a protected create whose outcome it could not learn.
    const { node, first } = await this.#createAndRead(options);
    try {
      const outcome = await this.#lockLoop(node, first, epoch, options);
      if (outcome === undefined || outcome === NODE_VANISHED) await this.#letGo(node, limits);
      return outcome;
    } catch (error) {
      await this.#letGo(node, limits);
      throw error;
    }
  }

  /**
   * Creates our node and, without waiting for the answer, reads the children: one round trip.
   * The read is only a first guess: if the create had to be retried (or create the parents),
   * the read may predate our node, and the loop reads again rather than assume.
   */
  async #createAndRead(
    options: AttemptOptions,
  ): Promise<{ node: OwnNode; first: readonly string[] | undefined }> {
    const { lockName, data } = this.#config;
    const { sortingSequence, limits } = options;
    const { signal } = limits;
    const created = this.#client.create(
      joinPath(this.#basePath, lockName + (sortingSequence ?? '')),
      {
        mode: sortingSequence === undefined ? 'EPHEMERAL_SEQUENTIAL' : 'EPHEMERAL',
        protection: true,
        createParents: true,
        data: options.data ?? data,
        stat: true,
        signal,
      },
    );
    const read = this.#client.getChildren(this.#basePath, { signal }).then(
      (children): readonly string[] => children,
      () => undefined, // the loop reads again and meets the real error there
    );
    const { path, stat } = await created;
    options.onCreated?.(path);
    const node = { path, czxid: stat.czxid, session: this.#client.sessionId };
    return { node, first: await read };
  }

  /** Curator's `internalLockLoop`: look, hold or watch the node ahead, look again. */
  async #lockLoop(
    node: OwnNode,
    first: readonly string[] | undefined,
    firstEpoch: number,
    options: AttemptOptions,
  ): Promise<AcquiredLock | undefined | typeof NODE_VANISHED> {
    const { limits } = options;
    const ourName = node.path.slice(node.path.lastIndexOf('/') + 1);
    let epoch = firstEpoch;
    let children = first?.includes(ourName) === true ? first : undefined;
    for (;;) {
      if (children === undefined) {
        epoch = this.#watch.epoch;
        children = await this.#read(limits.signal);
      }
      const sorted = this.#participants(children);
      children = undefined;
      if (!sorted.includes(ourName)) return NODE_VANISHED;
      if (this.#client.sessionId !== node.session) return NODE_VANISHED;
      const verdict =
        options.alwaysHolds === true
          ? ({ holds: true } as const)
          : this.#config.driver.verdict(sorted, ourName, this.#config.maxLeases);
      if (verdict.holds) {
        return { path: node.path, fencingToken: options.fencingToken ?? node.czxid, epoch };
      }
      if (limits.expired) return undefined;
      const woke = await this.#waitForDeletion(joinPath(this.#basePath, verdict.watch), limits);
      if (woke !== undefined) {
        epoch = woke.epoch;
        children = await woke.children;
      }
    }
  }

  /**
   * Watches `path` with getData (not exists: on a node that is already gone, exists would
   * leave a watch behind) and waits for it to change, the call's signal to abort (its deadline
   * passed, or the caller gave up: the read rejects with its reason and the watcher is
   * withdrawn) or the client to close.
   *
   * The handoff's critical path runs through here, so the watcher does the next step itself:
   * it sends the confirming children read at once, from the event, and hands it to the loop.
   * The loop itself is woken a turn later (setImmediate): it only has to be back before the
   * read's answer, and its few steps would otherwise run before the read leaves the socket
   * (the client sends what a tick wrote once the tick's promise jobs are done). A watch that
   * fires after the wait ended finds nothing left to do.
   */
  async #waitForDeletion(path: string, limits: AcquireLimits): Promise<Reread | undefined> {
    const { signal } = limits;
    const wait = new WakeWait();
    let reread: Reread | undefined;
    const watch = (): void => {
      if (wait.ended) return;
      const epoch = this.#watch.epoch;
      const children = this.#read(signal);
      children.catch(() => undefined); // not unhandled when an abort makes the loop drop it
      reread = { epoch, children };
      setImmediate(wait.wake);
    };
    try {
      await this.#client.getData(path, { watch, signal });
    } catch (error) {
      if (isNoNode(error)) return undefined; // gone already: the loop reads again
      throw error;
    }
    await wait.wait({ signal, closed: this.#watch.closedSignal });
    return reread; // undefined after a close: the loop's next read meets the ClosedError
  }

  async #read(signal: AbortSignal | undefined): Promise<readonly string[]> {
    try {
      return await this.#client.getChildren(this.#basePath, { signal });
    } catch (error) {
      if (isNoNode(error)) return [];
      throw error;
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
  #letGo(node: OwnNode, limits: AcquireLimits): Promise<void> {
    return removeOwnNode(this.#client, node.path, { logger: this.#logger, signal: limits.signal });
  }
}
