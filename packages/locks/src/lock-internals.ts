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
  type Stat,
} from '@zkrecipes/framework';
import { remainingMs } from './check-arguments.js';
import { ConnectionWatch } from './connection-watch.js';
import type { LockDriver } from './lock-driver.js';
import { ParticipantSorter, sortParticipants } from './lock-node-names.js';
import { sleepUnlessAborted, WakeWait, type WakeReason } from './wait-for-wake.js';

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
  /** Undefined waits without a limit; 0 answers at once. */
  readonly timeoutMs: number | undefined;
  readonly signal: AbortSignal | undefined;
  /**
   * Create `<lockName><sortingSequence>` as a plain EPHEMERAL node instead of a sequential one
   * (Curator 5.5+: a write holder's read lock takes its write lock's place in line).
   */
  readonly sortingSequence?: string | undefined;
  /** The caller is let in whatever the queue says (a write holder taking the read lock). */
  readonly alwaysHolds?: boolean | undefined;
}

/** A confirmed hold. */
export interface AcquiredLock {
  /** Our node, namespace-relative. */
  readonly path: string;
  /**
   * The pzxid of the lock node in the read that confirmed the hold: at least our node's czxid
   * and above every earlier holder's delete, so it grows strictly from holder to holder.
   */
  readonly fencingToken: bigint;
  /** The ConnectionWatch epoch read before the confirming request was sent. */
  readonly epoch: number;
}

interface Snapshot {
  readonly children: readonly string[];
  readonly stat: Stat | undefined;
}

/** A children read under way, with the ConnectionWatch epoch read just before it was sent. */
interface Reread {
  readonly epoch: number;
  readonly snapshot: Promise<Snapshot>;
}

/** Why a wait's watcher is withdrawn. */
const WAIT_ENDED = Symbol('wait ended');

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
   * Queues and waits (Curator's `attemptLock`). Resolves the hold, or undefined when the time
   * ran out. Whatever way it fails, the node it queued with is deleted (guaranteed) first.
   */
  async attemptLock(options: AttemptOptions): Promise<AcquiredLock | undefined> {
    const { timeoutMs, signal } = options;
    signal?.throwIfAborted();
    const startMs = performance.now();
    const deadlineMs = timeoutMs === undefined ? undefined : startMs + timeoutMs;
    if (timeoutMs === 0 && options.alwaysHolds !== true) {
      // One read decides when someone is there: no node to delete, no watch to leave.
      const sorted = this.#participants(await this.#read());
      if (this.#config.driver.blocked(sorted, this.#config.maxLeases)) return undefined;
    }
    for (let retryCount = 0; ; retryCount++) {
      signal?.throwIfAborted();
      const outcome = await this.#attemptOnce(options, deadlineMs);
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
      await sleepUnlessAborted(Math.min(delayMs, remainingMs(deadlineMs) ?? delayMs), signal);
    }
  }

  /**
   * Deletes a held node (guaranteed: a failure is retried in the background). With
   * `pipelineRelease` it returns without waiting for the answer: requests of this client that
   * follow (a new acquire) are sent after it and answered in order, so they see it done; other
   * clients see the lock free a round trip later than the caller resumes.
   */
  async releaseLock(path: string): Promise<void> {
    const deleting = this.#client.delete(path, { guaranteed: true, quietly: true });
    if (this.#config.pipelineRelease !== true) return deleting;
    deleting.catch((error: unknown) => {
      // A closed client ended the session, and the node with it: nothing to say.
      if (isClosed(error)) return;
      // Nobody awaits it: say so. Retryable failures go on in the background until the node
      // is gone; anything else leaves the node until the session ends.
      this.#logger.warn('releasing the lock failed', { lockPath: path, error });
    });
  }

  /** The participants' full paths in lock order (Curator's `getParticipantNodes`). */
  async participantNodes(): Promise<string[]> {
    const sorted = sortParticipants((await this.#read()).children, this.#config.driver.markers);
    return sorted.map((name) => joinPath(this.#basePath, name));
  }

  async #attemptOnce(
    options: AttemptOptions,
    deadlineMs: number | undefined,
  ): Promise<AcquiredLock | undefined | typeof NODE_VANISHED> {
    const epoch = this.#watch.epoch;
    const { path, session, first } = await this.#createAndRead(options.sortingSequence);
    try {
      const outcome = await this.#lockLoop(path, first, { epoch, session, deadlineMs }, options);
      if (outcome === undefined || outcome === NODE_VANISHED) await this.#deleteQuietly(path);
      return outcome;
    } catch (error) {
      await this.#deleteQuietly(path);
      throw error;
    }
  }

  /**
   * Creates our node and, without waiting for the answer, reads the children: one round trip.
   * The read is only a first guess: if the create had to be retried (or create the parents),
   * the read may predate our node, and the loop reads again rather than assume.
   */
  async #createAndRead(
    sortingSequence: string | undefined,
  ): Promise<{ path: string; session: bigint | undefined; first: Snapshot | undefined }> {
    const { lockName, data } = this.#config;
    const created = this.#client.create(
      joinPath(this.#basePath, lockName + (sortingSequence ?? '')),
      {
        mode: sortingSequence === undefined ? 'EPHEMERAL_SEQUENTIAL' : 'EPHEMERAL',
        protection: true,
        createParents: true,
        data,
      },
    );
    const read = this.#client.getChildren(this.#basePath, { stat: true }).then(
      (result): Snapshot => result,
      () => undefined, // the loop reads again and meets the real error there
    );
    const path = await created;
    // The session the node belongs to, read as the create's reply is handled. A node of an
    // earlier session can outlive our switch to a new one for a while (until the server expires
    // the old session), but it will vanish: the loop never holds or waits with it.
    const session = this.#client.sessionId;
    return { path, session, first: await read };
  }

  async #lockLoop(
    path: string,
    first: Snapshot | undefined,
    context: { epoch: number; session: bigint | undefined; deadlineMs: number | undefined },
    options: AttemptOptions,
  ): Promise<AcquiredLock | undefined | typeof NODE_VANISHED> {
    let { epoch, deadlineMs } = context;
    const ourName = path.slice(path.lastIndexOf('/') + 1);
    let snapshot = first?.children.includes(ourName) === true ? first : undefined;
    let next: Reread | undefined;
    for (;;) {
      options.signal?.throwIfAborted();
      if (snapshot === undefined) {
        const reread = next ?? this.#reread();
        next = undefined;
        epoch = reread.epoch;
        snapshot = await reread.snapshot;
      }
      const sorted = this.#participants(snapshot);
      const stat = snapshot.stat;
      snapshot = undefined;
      if (!sorted.includes(ourName) || stat === undefined) return NODE_VANISHED;
      if (this.#client.sessionId !== context.session) return NODE_VANISHED;
      const verdict =
        options.alwaysHolds === true
          ? ({ holds: true } as const)
          : this.#config.driver.verdict(sorted, ourName, this.#config.maxLeases);
      if (verdict.holds) return { path, fencingToken: stat.pzxid, epoch };
      const leftMs = remainingMs(deadlineMs);
      if (leftMs === 0) return undefined;
      const woke = await this.#waitForDeletion(joinPath(this.#basePath, verdict.watch), {
        timeoutMs: leftMs,
        signal: options.signal,
      });
      // After a timeout, one more look (as Curator does): the lock may have come our way.
      if (woke === 'timeout') deadlineMs = performance.now();
      else if (typeof woke === 'object') next = woke;
    }
  }

  /**
   * Watches `path` with getData (not exists: on a node that is already gone, exists would
   * leave a watch behind) and waits for it to change, the time to run out, the caller to abort
   * or the client to close.
   *
   * The handoff's critical path runs through here, so the watcher does the next step itself:
   * it sends the confirming children read at once, from the event, and hands it to the loop.
   * The loop itself is woken a turn later (setImmediate): it only has to be back before the
   * read's answer, and its few steps would otherwise run before the read leaves the socket
   * (the client sends what a tick wrote once the tick's promise jobs are done). A watch that
   * fires after the wait ended (a timeout, an abort) finds nothing left to do.
   */
  async #waitForDeletion(
    path: string,
    options: { timeoutMs: number | undefined; signal: AbortSignal | undefined },
  ): Promise<Exclude<WakeReason, 'woken'> | Reread | undefined> {
    const wait = new WakeWait();
    // Withdraws our watcher when the wait ends without it (timeout, abort, close), so waits
    // given up on one unchanged node do not pile up on the client's watch of that node.
    const withdraw = new AbortController();
    let reread: Reread | undefined;
    const watch = (): void => {
      if (wait.ended) return;
      reread = this.#reread();
      setImmediate(wait.wake);
    };
    try {
      await this.#client.getData(path, { watch, signal: withdraw.signal });
    } catch (error) {
      if (isNoNode(error)) return undefined; // gone already: the loop reads again
      throw error;
    }
    const woke = await wait.wait({ ...options, closed: this.#watch.closedSignal });
    if (woke === 'woken') return reread;
    withdraw.abort(WAIT_ENDED); // a reason of our own: no DOMException to build
    return woke;
  }

  /** Sends a children read; the loop awaits it unless it gives up first. */
  #reread(): Reread {
    const epoch = this.#watch.epoch;
    const snapshot = this.#read();
    snapshot.catch(() => undefined); // not unhandled when an abort makes the loop drop it
    return { epoch, snapshot };
  }

  async #read(): Promise<Snapshot> {
    try {
      return await this.#client.getChildren(this.#basePath, { stat: true });
    } catch (error) {
      if (isNoNode(error)) return { children: [], stat: undefined };
      throw error;
    }
  }

  #participants(snapshot: Snapshot): string[] {
    const result = this.#sorter.sort(snapshot.children);
    if ('foreign' in result) {
      const { recipe } = this.#config.driver;
      throw new InvalidArgumentError(
        `${this.#basePath} is used by ${result.foreign}; an ${recipe} cannot share its path`,
        { path: this.#basePath },
      );
    }
    return result.sorted;
  }

  /** Removes a node we queued with; failures are retried in the background by the client. */
  async #deleteQuietly(path: string): Promise<void> {
    try {
      await this.#client.delete(path, { guaranteed: true, quietly: true });
    } catch (error) {
      // The guaranteed delete keeps trying in the background (or the client closed and the
      // session took the node with it); the caller's own outcome matters more.
      this.#logger.debug('could not delete our lock node yet; retrying in the background', {
        lockPath: path,
        error,
      });
    }
  }
}
