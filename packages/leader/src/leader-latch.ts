import {
  BoundedExponentialBackoffRetry,
  ClosedError,
  ConnectionState,
  type FrameworkClient,
  IllegalStateError,
  isClosed,
  isErrorState,
  isNoNode,
  isRetryable,
  joinPath,
  type Logger,
  nodeName,
  type SignalOptions,
  validatePath,
  type IterableObservable,
} from '@zkrecipes/framework';
import {
  BackgroundRetry,
  assertClientStarted,
  booleanOption,
  checkClient,
  checkSignalOptions,
  checkOptionsObject,
  checkRecipeOptions,
  deleteOwnNode,
  connectionStreamOf,
  checkWaitOptions,
  untilFirstConnection,
  type ConnectionStream,
  onAbort,
} from '@zkrecipes/framework/recipe-support';
import { sortParticipants } from '@zkrecipes/locks';
import { checkConcurrency, checkId } from './check-options.js';
import type {
  LeaderLatchAwaitOptions,
  LeaderLatchCloseOptions,
  LeaderLatchOptions,
} from './leader-latch-options.js';
import { LeaderState } from './leader-state.js';
import {
  LeadershipState,
  type LeaderError,
  type LeadershipEvent,
  type LeadershipListener,
} from './leadership-state.js';
import {
  DEFAULT_PARTICIPANT_READ_CONCURRENCY,
  LATCH_NODE_NAME,
  latchParticipantPaths,
  readLeader,
  readParticipants,
  type Participant,
} from './participant.js';
import { LeaderTelemetry } from './leader-telemetry.js';
import { LatchLeadership } from './latch-leadership.js';
import type { Leadership } from './leadership.js';
import { SingleWatch } from './single-watch.js';
import { waitForLeadership } from './wait-for-leadership.js';

const MARKERS = [LATCH_NODE_NAME] as const;
const MAX_RETRY_DELAY_MS = 5000;

/**
 * Between background tries of a failed check or reset: 100 ms after the first failure, growing
 * to at most 5 s apart, forever; every failure is retried, not only the connection-class ones.
 * Before BackgroundRetry the latch doubled a fixed 100 ms (100, 200, 400, ... 5 s); the policy
 * draws each delay at random around the same doubling (100-300 ms, then 100-700 ms, ...).
 */
const LATCH_RETRY_POLICY = new BoundedExponentialBackoffRetry({
  baseSleepMs: 100,
  maxSleepMs: MAX_RETRY_DELAY_MS,
  maxRetries: Number.MAX_SAFE_INTEGER,
});

/** A reset covers a check. */
function mergeWork(pending: Work | undefined, work: Work): Work {
  return work === 'reset' || pending === 'reset' ? 'reset' : 'check';
}

type Work = 'check' | 'reset';

/**
 * Leader election where leadership is a state, not a task (Curator's `LeaderLatch`): every
 * participant keeps an ephemeral sequential `_c_<uuid>-latch-` node holding its id under
 * `path`; the first in line leads until it closes or loses its session. Node for node
 * compatible with Curator 5.x.
 *
 * Leadership ends on the client's error-policy states (SUSPENDED under 'standard', LOST
 * always). On RECONNECTED the latch looks again and keeps its node while the session
 * survived; it makes a new node when the session changed or its node or the latch path is
 * gone. It leads only through a node whose `ephemeralOwner` is its current session, never
 * through one left by an earlier session (CURATOR-696). Beyond Curator, the leader watches its
 * own node, so it notices at once when that node is deleted.
 *
 * @example
 * const latch = new LeaderLatch(client, '/app/scheduler', { id: 'node-1' });
 * latch.on('isLeader', () => scheduler.resume());
 * latch.on('notLeader', () => scheduler.pause());
 * await latch.start();
 * if (await latch.await({ timeoutMs: 10_000 })) console.log('leading');
 */
export class LeaderLatch {
  readonly #client: FrameworkClient;
  readonly #path: string;
  readonly #id: string;
  readonly #notifyLeaderOnClose: boolean;
  readonly #concurrency: number;
  readonly #logger: Logger;
  readonly #leadership: LeadershipState;
  #state: LeaderState = LeaderState.LATENT;
  #ourPath: string | undefined;
  /** The session our node was created in. */
  #ourSession: bigint | undefined;
  #lastPathIsLeader: string | undefined;
  #pending: Work | undefined;
  /** The drain in flight, settled either way: close() waits for it. */
  #running: Promise<void> | undefined;
  /** Runs the drain, one at a time, and again with backoff after a failure. */
  readonly #retry: BackgroundRetry;
  /** The work whose failure the retry is about to wait for (for the log and the report). */
  #failedWork: Work = 'check';
  /** The node ahead of ours, or ours while we lead: its change makes us look again. */
  readonly #watch: SingleWatch;
  /** The client's connection: its epoch tells a check whether it may claim leadership. */
  readonly #connection: ConnectionStream;
  #stopListening: (() => void) | undefined;
  /** Aborted by close(): every request of the latch stops waiting for a connection or a retry. */
  readonly #closer = new AbortController();
  /** The leadership under way: made by the check that grants it, ended when isLeader turns false. */
  #current: LatchLeadership | undefined;

  constructor(client: FrameworkClient, path: string, options: LeaderLatchOptions = {}) {
    checkClient('LeaderLatch', client);
    validatePath(path);
    checkRecipeOptions('LeaderLatch', options, ['id', 'notifyLeaderOnClose', 'concurrency']);
    this.#id = checkId(options.id);
    this.#notifyLeaderOnClose = booleanOption(
      'notifyLeaderOnClose',
      options.notifyLeaderOnClose,
      false,
    );
    this.#concurrency = checkConcurrency(options.concurrency, DEFAULT_PARTICIPANT_READ_CONCURRENCY);
    this.#client = client;
    this.#path = path;
    this.#connection = connectionStreamOf(client);
    this.#logger = client.logger.child({ component: 'LeaderLatch', path });
    const telemetry = new LeaderTelemetry(client, 'LeaderLatch', path);
    this.#leadership = new LeadershipState(client, this.#logger, telemetry);
    this.#watch = new SingleWatch(client, this.#closer.signal, (event) => {
      this.#logger.debug('watch fired', { type: event.type, watched: event.path });
      telemetry.watchFired();
      this.#request('check');
    });
    // Every way leadership ends goes through the flag; the current leadership ends with it.
    this.#leadership.changes.subscribe((leads) => {
      if (leads) return;
      this.#current?.end(this.#state === LeaderState.CLOSED);
      this.#current = undefined;
    });
    this.#retry = new BackgroundRetry(() => this.#runDrain(), {
      policy: LATCH_RETRY_POLICY,
      signal: this.#closer.signal,
      // As before: any failure of a check or reset is tried again, not only a retryable one.
      isRetryable: () => true,
      onRetry: ({ error, delayMs }) => this.#failed(error, delayMs),
    });
  }

  /** The latch's path. */
  get path(): string {
    return this.#path;
  }

  /** This participant's id (its node's data). */
  get id(): string {
    return this.#id;
  }

  /** LATENT before start(), STARTED, then CLOSED after close(). */
  get state(): LeaderState {
    return this.#state;
  }

  /**
   * True while this participant leads. (This was the `hasLeadership` property; `hasLeadership`
   * is now Curator's method, which returns the same.)
   */
  get isLeader(): boolean {
    return this.#state === LeaderState.STARTED && this.#leadership.value;
  }

  /** Curator's `hasLeadership()`: {@link isLeader}. */
  hasLeadership(): boolean {
    return this.isLeader;
  }

  /** Curator's `getId()`: {@link id}. */
  getId(): string {
    return this.#id;
  }

  /** Curator's `getState()`: {@link state}. */
  getState(): LeaderState {
    return this.#state;
  }

  /**
   * Until when (a `performance.now()` instant) this latch's leadership is known to be sound:
   * the client's `validUntilMs` while it leads (every error-policy state ends leadership, so
   * none came since it was gained), else -Infinity. Right even after an event-loop stall.
   */
  get validUntil(): number {
    return this.isLeader ? this.#client.validUntilMs : -Infinity;
  }

  /**
   * True while this participant leads and its leadership is known to be sound right now
   * (`performance.now() < validUntil`). Check it just before a side effect only the leader
   * may make; `isLeader` alone may lag behind an event-loop stall.
   */
  isValid(): boolean {
    return performance.now() < this.validUntil;
  }

  /**
   * This latch's leadership while it leads, else undefined: its fencing token (the czxid of
   * the node it leads through), its `transaction` (writes that land only while that node
   * exists), a signal that aborts when leadership ends, and `isValid()` as the latch's.
   */
  get currentLeadership(): Leadership | undefined {
    return this.isLeader ? this.#current : undefined;
  }

  /** Leadership over time; replays the current value. Completes on close. */
  get leadershipStates(): IterableObservable<boolean> {
    return this.#leadership.changes;
  }

  /** Background failures: requests that failed past the retry policy, throwing listeners. */
  get errors(): IterableObservable<LeaderError> {
    return this.#leadership.errors;
  }

  /** Our node, when we have one; it changes after a reset. */
  get ourPath(): string | undefined {
    return this.#ourPath;
  }

  /** Curator's `getOurPath()`: {@link ourPath} (undefined where Curator gives null). */
  getOurPath(): string | undefined {
    return this.#ourPath;
  }

  /** The last node through which we led. */
  get lastPathIsLeader(): string | undefined {
    return this.#lastPathIsLeader;
  }

  /** Curator's `getLastPathIsLeader()`: {@link lastPathIsLeader}. */
  getLastPathIsLeader(): string | undefined {
    return this.#lastPathIsLeader;
  }

  /**
   * Calls `listener` (asynchronously, isolated) when leadership starts ('isLeader') or ends
   * ('notLeader'). Returns the function that removes it.
   */
  on(event: LeadershipEvent, listener: LeadershipListener): () => void {
    return this.#leadership.on(event, listener);
  }

  /** Joins the election; the node is created in the background. A second call rejects. */
  start(): Promise<void> {
    if (this.#state !== LeaderState.LATENT) {
      return Promise.reject(
        new IllegalStateError(`start() on a ${this.#state} LeaderLatch`, { path: this.#path }),
      );
    }
    try {
      // Its first create would fail in the background, out of the caller's sight.
      assertClientStarted(this.#client, this.#path);
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on unchanged (a ZooKeeperError)
      return Promise.reject(error);
    }
    this.#state = LeaderState.STARTED;
    const stopStates = this.#connection.onState((state) => this.#onState(state));
    // A closed client ends the session, and leadership with it (it sends no state for that).
    const { closedSignal } = this.#connection;
    const stopClosed = onAbort(closedSignal, () => this.#leadership.set(false));
    this.#stopListening = () => {
      stopStates();
      stopClosed();
    };
    this.#request('reset');
    return Promise.resolve();
  }

  /**
   * Waits until this participant leads (Curator's `await`): true once it does (at once if it
   * does already), false when `timeoutMs` passes first, in any connection state. Rejects with
   * ClosedError when the latch or the client closes first, or is closed already (Curator
   * throws EOFException), with `signal.reason` when aborted, and with InvalidArgumentError
   * before `start()`.
   */
  async await(options: LeaderLatchAwaitOptions = {}): Promise<boolean> {
    checkWaitOptions(options);
    const { timeoutMs, signal } = options;
    signal?.throwIfAborted();
    if (this.#state === LeaderState.LATENT) {
      throw new IllegalStateError('await() before start()', { path: this.#path });
    }
    if (this.#state === LeaderState.CLOSED) throw this.#closedError();
    if (timeoutMs !== undefined) {
      // The time limit counts from the client's first connection (see untilFirstConnection);
      // the latch's close ends that wait with its ClosedError.
      const closer = this.#closer.signal;
      const ends = signal === undefined ? closer : AbortSignal.any([signal, closer]);
      const connecting = untilFirstConnection(this.#client, ends);
      if (connecting !== undefined) await connecting;
    }
    return await waitForLeadership(this.#leadership.changes, {
      timeoutMs,
      signal,
      client: this.#client,
      path: this.#path,
    });
  }

  /**
   * Leaves the election: leadership ends, listeners go, every request of the latch stops, and
   * our node is deleted: close() waits for the server only while connected; otherwise the
   * delete goes to the client's guaranteed deletes (the node also ends with its session). A
   * leader's notLeader listeners are called only with `notifyLeader`. Twice is a no-op.
   */
  async close(options: LeaderLatchCloseOptions = {}): Promise<void> {
    checkOptionsObject(options);
    const notify =
      options.notifyLeader === undefined
        ? this.#notifyLeaderOnClose
        : booleanOption('notifyLeader', options.notifyLeader, false);
    if (this.#state === LeaderState.CLOSED) return;
    this.#state = LeaderState.CLOSED;
    this.#stopListening?.();
    this.#retry.close();
    this.#pending = undefined;
    // Leadership ends before our node goes, so we never overlap with the next leader.
    this.#leadership.set(false, notify);
    // Work in flight rejects at once (a protected create's node is removed in the background);
    // a node it made before that goes here.
    this.#closer.abort(this.#closedError());
    await this.#running;
    await this.#deleteOurNode();
    this.#leadership.close();
  }

  /** Same as close(): for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /**
   * Every participant in election order, the leader first (Curator's `getParticipants()`).
   * Aborting `signal` rejects with its reason at once, in any connection state (every read is
   * given it).
   */
  async getParticipants(options: SignalOptions = {}): Promise<Participant[]> {
    const signal = checkSignalOptions(options);
    return readParticipants(
      this.#client,
      await latchParticipantPaths(this.#client, this.#path, signal),
      this.#concurrency,
      signal,
    );
  }

  /**
   * The current leader, or undefined when nobody takes part (Curator returns a dummy).
   * Aborting `signal` rejects with its reason at once, in any connection state.
   */
  async getLeader(options: SignalOptions = {}): Promise<Participant | undefined> {
    const signal = checkSignalOptions(options);
    const paths = await latchParticipantPaths(this.#client, this.#path, signal);
    return readLeader(this.#client, paths, signal);
  }

  #onState(state: ConnectionState): void {
    if (this.#state !== LeaderState.STARTED) return;
    if (isErrorState(state, this.#client.errorPolicy)) {
      this.#leadership.set(false);
    } else if (state === ConnectionState.RECONNECTED) {
      // The check resets when the session changed: our node would vanish with the old one.
      this.#request('check');
    }
  }

  /** Asks for a check or a reset; one runs at a time, and a reset covers a check. */
  #request(work: Work): void {
    if (this.#state !== LeaderState.STARTED) return;
    this.#pending = mergeWork(this.#pending, work);
    this.#retry.kick();
  }

  /** One run of the retry: the drain, tracked for close(). */
  async #runDrain(): Promise<void> {
    const drain = this.#drain();
    this.#running = drain.then(
      () => undefined,
      () => undefined,
    );
    try {
      await drain;
    } finally {
      this.#running = undefined;
    }
  }

  /**
   * Does the pending work until none is left. A failure puts its work back and rejects, so the
   * retry tries again later (and at once on the next request, e.g. RECONNECTED).
   */
  async #drain(): Promise<void> {
    for (let work = this.#pending; work !== undefined; work = this.#pending) {
      this.#pending = undefined;
      if (this.#state !== LeaderState.STARTED) return;
      try {
        if (work === 'reset') await this.#reset();
        else await this.#check();
      } catch (error) {
        if (this.#state !== LeaderState.STARTED || isClosed(error)) return;
        this.#pending = mergeWork(this.#pending, work);
        this.#failedWork = work;
        throw error;
      }
    }
  }

  /** A request failed past the client's retry policy: log or report it; it runs again later. */
  #failed(error: unknown, delayMs: number): void {
    if (this.#state !== LeaderState.STARTED) return;
    if (isRetryable(error)) {
      this.#logger.debug(`${this.#failedWork} failed; trying again`, { delayMs, error });
    } else {
      this.#leadership.report(error, this.#failedWork);
    }
  }

  /** Gives up our node (if any) and queues with a new one (Curator's `reset()`). */
  async #reset(): Promise<void> {
    this.#leadership.set(false);
    this.#watch.silence();
    await this.#deleteOurNode(this.#closer.signal);
    const created = await this.#client.create(joinPath(this.#path, LATCH_NODE_NAME), {
      mode: 'EPHEMERAL_SEQUENTIAL',
      protection: true,
      createParents: true,
      data: Buffer.from(this.#id, 'utf8'),
      signal: this.#closer.signal,
    });
    // Read as the reply is handled: the session the node belongs to.
    const session = this.#client.sessionId;
    this.#ourPath = created;
    this.#ourSession = session;
    if (this.#state !== LeaderState.STARTED) return; // close() deletes it
    await this.#check();
  }

  /** Looks where we stand (Curator's `checkLeadership`): lead, or watch the node ahead. */
  async #check(): Promise<void> {
    // Read before any request of the check is sent: what the check sees dates from then.
    const epoch = this.#connection.epoch;
    const ourPath = this.#ourPath;
    if (ourPath === undefined || this.#ourSession !== this.#client.sessionId) {
      return this.#reset();
    }
    let children: string[];
    try {
      children = await this.#client.getChildren(this.#path, { signal: this.#closer.signal });
    } catch (error) {
      if (isNoNode(error)) return this.#reset(); // the latch path is gone (CURATOR-724)
      throw error;
    }
    if (this.#state !== LeaderState.STARTED) return;
    const sorted = sortParticipants(children, MARKERS);
    const index = sorted.indexOf(nodeName(ourPath));
    if (index < 0) return this.#reset();
    if (index > 0) {
      this.#leadership.set(false);
      if (!(await this.#watch.read(joinPath(this.#path, sorted[index - 1]!)))) {
        this.#request('check'); // the node ahead went meanwhile
      }
      return;
    }
    // First in line. Lead only through a node of our current session (CURATOR-696): one left
    // by an earlier session would vanish when the server expires that session, and another
    // participant would lead while we still think we do. The read also sets a watch on our
    // own node, so its deletion makes us look again at once.
    const stat = await this.#watch.read(ourPath);
    if (this.#state !== LeaderState.STARTED) return;
    if (stat === undefined || stat.ephemeralOwner !== this.#client.sessionId) {
      this.#logger.info('our node is gone or belongs to another session; queueing again', {
        ourPath,
        ephemeralOwner: stat === undefined ? undefined : `0x${stat.ephemeralOwner.toString(16)}`,
      });
      return this.#reset();
    }
    // Lead only while the session is proven sound since the check began. After a loss (an
    // error state, now or since), RECONNECTED makes us look again. Without one, the answers
    // predate a stall the client has not noticed yet (a frozen process whose session may be
    // gone): look again now; the reads wait for a connection, and their answers prove it.
    if (!this.#connection.isValidSince(epoch)) {
      if (this.#connection.lossSince(epoch) === undefined) this.#request('check');
      return;
    }
    this.#lastPathIsLeader = ourPath;
    // A check while leading through the same node keeps the leadership it is in.
    if (this.#current?.path !== ourPath) {
      this.#current?.end(false);
      this.#current = new LatchLeadership(
        this.#client,
        this.#connection,
        epoch,
        ourPath,
        stat.czxid,
      );
    }
    this.#leadership.set(true);
  }

  /**
   * Lets go of our node: waits for the delete only while connected and `signal` has not
   * aborted (see deleteOwnNode); otherwise it goes on in the background.
   */
  async #deleteOurNode(signal?: AbortSignal): Promise<void> {
    const ourPath = this.#ourPath;
    this.#ourPath = undefined;
    this.#ourSession = undefined;
    if (ourPath === undefined) return;
    try {
      await deleteOwnNode(this.#client, ourPath, { signal });
    } catch (error) {
      // Not a connection problem (NO_AUTH, say): the node stays until its session ends.
      this.#leadership.report(error, `deleting ${ourPath} (it goes with its session)`);
    }
  }

  #closedError(): ClosedError {
    return new ClosedError({ path: this.#path, detail: 'LeaderLatch closed' });
  }
}
