import {
  BoundedExponentialBackoffRetry,
  isBadVersion,
  isNoNode,
  isNodeExists,
  isOutcomeUnknown,
  isRetryable,
  op,
  type CreateMode,
  type FrameworkClient,
  type Stat,
  type WatchedEvent,
} from '@zkrecipes/framework';
import {
  BackgroundRetry,
  deleteOwnNode,
  onAbort,
  RearmableWatch,
  type WatchAttempt,
} from '@zkrecipes/framework/recipe-support';
import type { NodeKeeperOptions } from './node-keeper-options.js';

type StepOutcome = 'done' | 'again';

/** After this many immediate re-tries of a step (the node keeps changing), back off. */
const MAX_SPINS = 8;

/**
 * The backoff of failed and spinning loops: 100 ms after the first failure, growing to at most
 * 30 s apart, forever. Before BackgroundRetry the keeper doubled a fixed 100 ms (100, 200, 400,
 * ... 30 s); the policy draws each delay at random around the same doubling (100-300 ms, then
 * 100-700 ms, ...), so keepers that failed together do not retry in lockstep.
 */
const KEEPER_RETRY_POLICY = new BoundedExponentialBackoffRetry({
  baseSleepMs: 100,
  maxSleepMs: 30_000,
  maxRetries: Number.MAX_SAFE_INTEGER,
});

/** Thrown out of a run whose steps kept changing the node: back off, but report nothing. */
const SPINNING = new Error('the node kept changing; backing off');

/** The create mode used to re-create a node whose name is already known. */
function fixedMode(mode: CreateMode): CreateMode {
  if (mode === 'EPHEMERAL_SEQUENTIAL') return 'EPHEMERAL';
  if (mode === 'PERSISTENT_SEQUENTIAL') return 'PERSISTENT';
  return mode;
}

/**
 * The algorithm behind PersistentNode: one serialized loop of steps that bring the server in
 * line with what we want (the node exists, is ours, carries our data, and is watched).
 *
 * A step pipelines its requests, so the common cases cost one round trip: create + getData
 * (the watch) sent back to back; on NODE_EXISTS the same getData reply says whose node it is.
 * A node of an older session is replaced with one multi (delete that version + create), so it
 * never goes missing. Triggers: start, the node's deletion (its data watch), RECONNECTED (the
 * same or a new session), setData. Retryable failures are retried with backoff (one
 * BackgroundRetry runs the loop) and on the next reconnect; others wait for the next trigger.
 */
export class NodeKeeper {
  readonly #client: FrameworkClient;
  readonly #options: NodeKeeperOptions;
  readonly #sequential: boolean;
  readonly #ephemeral: boolean;
  /** Sessions in which we created the node: their leftovers are certainly ours. */
  readonly #ownSessions = new Set<bigint>();
  #data: Buffer;
  #dataGen = 0;
  #writtenGen = -1;
  #dataWaiters: { gen: number; resolve: () => void; reject: (error: unknown) => void }[] = [];
  #actualPath: string | undefined;
  /** Whether the node at actualPath is ours to keep (false while another session holds it). */
  #owned = false;
  #initialDone = false;
  /** The session in which we last replaced a node we could not prove ours. */
  #replacedForeignIn: bigint | undefined;
  /** The watch on our node (getData): its deletion re-creates the node. */
  readonly #nodeWatch = new RearmableWatch((event, current) => this.#onWatch(event, current));
  #needEnsure = true;
  /** Runs the loop, one run at a time: again at once when kicked meanwhile, later on failure. */
  readonly #retry: BackgroundRetry;
  #stopped = false;
  /** The known path a create (or replacing multi) is out for: it may exist once aborted. */
  #creating: string | undefined;

  constructor(client: FrameworkClient, options: NodeKeeperOptions) {
    this.#client = client;
    this.#options = options;
    this.#data = options.data;
    this.#sequential =
      options.mode === 'EPHEMERAL_SEQUENTIAL' || options.mode === 'PERSISTENT_SEQUENTIAL';
    this.#ephemeral = options.mode === 'EPHEMERAL' || options.mode === 'EPHEMERAL_SEQUENTIAL';
    this.#retry = new BackgroundRetry(() => this.#loop(), {
      policy: KEEPER_RETRY_POLICY,
      isRetryable: (error) => error === SPINNING || isRetryable(error),
      onRetry: ({ error }) => {
        // The next run checks everything, as a failure may have left any state behind.
        this.#needEnsure = true;
        if (error !== SPINNING) this.#report(error);
      },
      // Others wait for the next trigger (a watch, RECONNECTED, setData).
      onError: (error) => this.#report(error),
    });
  }

  get actualPath(): string | undefined {
    return this.#actualPath;
  }

  get data(): Buffer {
    return this.#data;
  }

  get initialCreateDone(): boolean {
    return this.#initialDone;
  }

  start(): void {
    this.ensure();
  }

  /** Check everything: create if missing, replace an old session's node, rewrite the data. */
  ensure(): void {
    this.#needEnsure = true;
    this.#kick();
  }

  /**
   * New data: kept for every future create, written now when the node is ours. `signal` only
   * ends the caller's wait (rejecting with its reason): the data stays and is still written.
   */
  setData(data: Buffer, started: boolean, signal?: AbortSignal): Promise<void> {
    this.#data = data;
    const gen = ++this.#dataGen;
    const written = new Promise<void>((resolve, reject) => {
      const waiter = { gen, resolve, reject };
      this.#dataWaiters.push(waiter);
      if (signal === undefined) return;
      const stop = onAbort(signal, () => {
        this.#dataWaiters = this.#dataWaiters.filter((w) => w !== waiter);
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on unchanged
        reject(signal.reason);
      });
      waiter.resolve = () => {
        stop();
        resolve();
      };
      waiter.reject = (error) => {
        stop();
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on unchanged
        reject(error);
      };
    });
    if (started) this.#kick();
    return written;
  }

  /**
   * Ends the loop; call it before aborting the owner's signal. Returns the path to delete: our
   * node, or that of a create still out (it may have reached the server; the delete is sent
   * after it). A node whose create reply still comes is deleted then (as Curator does).
   */
  stop(): string | undefined {
    this.#stopped = true;
    this.#retry.close();
    if (this.#owned) return this.#actualPath;
    // Not while another live session holds that name: the node is theirs, not ours to delete.
    const foreign = this.#actualPath !== undefined && this.#actualPath === this.#creating;
    return foreign ? undefined : this.#creating;
  }

  rejectWaiters(error: unknown): void {
    for (const waiter of this.#dataWaiters.splice(0)) waiter.reject(error);
  }

  #kick(): void {
    if (this.#stopped) return;
    this.#retry.kick();
  }

  /** Steps until the server is in line; a kick during a run makes BackgroundRetry run again. */
  async #loop(): Promise<void> {
    for (let spins = 1; !this.#stopped && (await this.#step()) === 'again'; spins++) {
      if (spins >= MAX_SPINS) throw SPINNING;
    }
  }

  async #step(): Promise<StepOutcome> {
    if (this.#needEnsure || this.#actualPath === undefined) {
      this.#needEnsure = false;
      try {
        if (this.#actualPath === undefined && this.#sequential) return await this.#createFirst();
        return await this.#ensureAt(this.#actualPath ?? this.#options.plainPath);
      } catch (error) {
        this.#needEnsure = true;
        throw error;
      }
    }
    return this.#maintain(this.#actualPath);
  }

  /** The first create of a sequential node: its name is the server's to choose. */
  async #createFirst(): Promise<StepOutcome> {
    const { basePath, mode, protection, createParents } = this.#options;
    const { data, gen } = this.#snapshot();
    // Its name is unknown until the reply: with protection the client finds (or removes) a
    // node whose create was cut off; without, the create is idempotent, so a lost reply
    // leaves no second node behind (Curator's would).
    const path = await this.#client.create(basePath, {
      mode,
      data,
      protection,
      idempotent: true,
      createParents,
      signal: this.#options.signal,
    });
    this.#created(path, gen, this.#client.sessionId);
    // The name is known from now on; watch it (and re-create under it if already gone).
    return this.#maintain(path);
  }

  /** Create at a known path, pipelined with the read that watches it and says whose it is. */
  async #ensureAt(path: string): Promise<StepOutcome> {
    const { data, gen } = this.#snapshot();
    const session = this.#client.sessionId;
    const token = this.#nodeWatch.next();
    const { signal } = this.#options;
    this.#creating = path;
    const [created, read] = await Promise.allSettled([
      this.#client.create(path, {
        mode: fixedMode(this.#options.mode),
        data,
        createParents: this.#options.createParents,
        signal,
      }),
      // Armed already (a reconnect in the same session): read without a second watcher.
      token === undefined ? this.#client.getData(path, { signal }) : this.#watchRead(path, token),
    ]).finally(() => (this.#creating = undefined));
    if (created.status === 'fulfilled') {
      this.#created(path, gen, session);
      return this.#readOutcome(read);
    }
    // After a lost reply a node written since cannot be told ours: adopting it decides.
    const exists = isNodeExists(created.reason) || isOutcomeUnknown(created.reason, 'NODE_EXISTS');
    if (!exists) throw created.reason;
    if (read.status === 'rejected' || read.value === undefined) return this.#readOutcome(read);
    return this.#adopt(path, read.value.stat, read.value.data, session);
  }

  /** The node exists under our name: keep it, replace it, or wait for it to go. */
  async #adopt(
    path: string,
    stat: Stat,
    current: Buffer,
    session: bigint | undefined,
  ): Promise<StepOutcome> {
    const owner = stat.ephemeralOwner;
    if (this.#ephemeral && owner !== 0n && owner !== session) {
      const ours = this.#options.protection || this.#ownSessions.has(owner);
      if (ours || this.#replacedForeignIn !== session) return this.#replace(path, stat, ours);
      this.#actualPath = path;
      this.#owned = false;
      this.#options.logger.warn(
        'another live session holds this node; not replacing it twice in one session: ' +
          'it is re-created when that session ends',
        { node: path, ephemeralOwner: hex(owner) },
      );
      return 'done';
    }
    if (this.#ephemeral !== (owner !== 0n)) {
      this.#options.logger.warn("the existing node's ephemeral state does not match our mode", {
        node: path,
        mode: this.#options.mode,
      });
    }
    if (this.#stopped) return 'done';
    this.#actualPath = path;
    this.#owned = true;
    const { data, gen } = this.#snapshot();
    if (!current.equals(data)) {
      try {
        await this.#client.setData(path, data, {
          version: stat.version,
          signal: this.#options.signal,
        });
      } catch (error) {
        // Deleted or rewritten since our read (e.g. an earlier object with this name, closed
        // while its create was in flight, deletes the node it then finds): look again.
        // After a lost reply, OUTCOME_UNKNOWN: looking again re-reads and rewrites (harmless).
        if (!isNoNode(error) && !isBadVersion(error) && !isOutcomeUnknown(error)) throw error;
        this.#needEnsure = true;
        return 'again';
      }
    }
    this.#written(gen);
    this.#ready();
    return 'done';
  }

  /** Delete that exact version and create ours in one multi; watch the new node. */
  async #replace(path: string, stat: Stat, ours: boolean): Promise<StepOutcome> {
    const { data, gen } = this.#snapshot();
    const session = this.#client.sessionId;
    const token = this.#nodeWatch.next(true);
    this.#creating = path;
    const [replaced, read] = await Promise.allSettled([
      this.#client.transaction(
        [
          op.delete(path, { version: stat.version }),
          op.create(path, { data, mode: fixedMode(this.#options.mode) }),
        ],
        { signal: this.#options.signal },
      ),
      this.#watchRead(path, token),
    ]).finally(() => (this.#creating = undefined));
    if (replaced.status === 'rejected') {
      // The node changed under us (deleted, rewritten): look again.
      if (isRetryable(replaced.reason)) throw replaced.reason;
      return 'again';
    }
    if (!ours) this.#replacedForeignIn = session;
    this.#options.logger.info('replaced the node left by another session', {
      node: path,
      ephemeralOwner: hex(stat.ephemeralOwner),
    });
    this.#created(path, gen, session);
    return this.#readOutcome(read);
  }

  /** The node is known and ours: re-arm its watch and write pending data, pipelined. */
  async #maintain(path: string): Promise<StepOutcome> {
    if (!this.#owned) return 'done'; // waiting for the other session's node to go
    const { data, gen } = this.#snapshot();
    const { signal } = this.#options;
    const write = this.#writtenGen < gen ? this.#client.setData(path, data, { signal }) : undefined;
    const token = this.#nodeWatch.next();
    const [written, read] = await Promise.allSettled([write, this.#watchRead(path, token)]);
    if (written.status === 'rejected') {
      if (!isNoNode(written.reason) && !isOutcomeUnknown(written.reason)) throw written.reason;
      this.#needEnsure = true;
      return 'again';
    }
    if (write !== undefined) this.#written(gen);
    return this.#readOutcome(read);
  }

  /** getData with our watch (the node's deletion re-creates it); no request when armed. */
  async #watchRead(
    path: string,
    token: WatchAttempt | undefined,
  ): Promise<{ data: Buffer; stat: Stat } | undefined> {
    if (token === undefined) return undefined;
    const result = await this.#client.getData(path, {
      watch: token.watcher,
      signal: this.#options.signal,
    });
    token.confirm();
    return result;
  }

  #readOutcome(read: PromiseSettledResult<unknown>): StepOutcome {
    if (read.status === 'fulfilled') return 'done';
    if (!isNoNode(read.reason)) throw read.reason;
    // Gone again (or the read overtook a create that had to make the parents first).
    this.#needEnsure = true;
    return 'again';
  }

  #onWatch(event: WatchedEvent, current: boolean): void {
    // A superseded watch (the node we replaced) says nothing about the current one.
    if (!current) return;
    if (event.type === 'SESSION_EXPIRED') return; // RECONNECTED ensures
    if (event.type === 'NODE_DELETED') this.#needEnsure = true;
    // NODE_DATA_CHANGED: just watch again (Curator does not restore data someone else wrote).
    this.#kick();
  }

  #created(path: string, gen: number, session: bigint | undefined): void {
    if (this.#stopped) {
      if (!this.#options.deleteAfterStop) return;
      deleteOwnNode(this.#client, path).catch((error: unknown) => {
        this.#options.report(error, `deleting ${path}, created after close`);
      });
      return;
    }
    this.#actualPath = path;
    this.#owned = true;
    if (session !== undefined) this.#ownSessions.add(session);
    this.#written(gen);
    this.#ready();
    this.#options.onCreated(path);
  }

  #ready(): void {
    if (this.#initialDone) return;
    this.#initialDone = true;
    this.#options.onReady();
  }

  #snapshot(): { data: Buffer; gen: number } {
    return { data: this.#data, gen: this.#dataGen };
  }

  #written(gen: number): void {
    if (gen <= this.#writtenGen) return;
    this.#writtenGen = gen;
    const done = this.#dataWaiters.filter((waiter) => waiter.gen <= gen);
    this.#dataWaiters = this.#dataWaiters.filter((waiter) => waiter.gen > gen);
    for (const waiter of done) waiter.resolve();
  }

  #report(error: unknown): void {
    if (this.#stopped) return;
    this.#options.report(error, `keeping ${this.#actualPath ?? this.#options.basePath}`);
  }
}

function hex(sessionId: bigint): string {
  return `0x${sessionId.toString(16)}`;
}
