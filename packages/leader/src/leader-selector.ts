import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';

import {
  ClosedError,
  ConnectionLossError,
  ConnectionState,
  type FrameworkClient,
  IllegalStateError,
  isClosed,
  isErrorState,
  type Logger,
  RetryForever,
  type SignalOptions,
  SessionExpiredError,
  validatePath,
  type IterableObservable,
} from '@zkrecipes/framework';
import {
  assertClientStarted,
  BackgroundRetry,
  booleanOption,
  checkClient,
  checkSignalOptions,
  checkRecipeOptions,
  connectionStreamOf,
  whileConnected,
} from '@zkrecipes/framework/recipe-support';
import { checkConcurrency, checkId, checkSelectorListener } from './check-options.js';
import { LeaderState } from './leader-state.js';
import { LeaderTelemetry } from './leader-telemetry.js';
import {
  LeadershipState,
  type LeaderError,
  type LeadershipEvent,
  type LeadershipListener,
} from './leadership-state.js';
import type {
  LeaderSelectorListener,
  LeaderSelectorOptions,
  TakeLeadership,
} from './leader-selector-options.js';
import { SelectorLeadership } from './leadership.js';
import {
  DEFAULT_PARTICIPANT_READ_CONCURRENCY,
  readLeader,
  readParticipants,
  type Participant,
} from './participant.js';
import { SelectorMutex } from './selector-mutex.js';

/** One attempt: queue, lead, give up the node. */
interface Attempt {
  readonly cancel: AbortController;
  done: Promise<void>;
  /** Settles when takeLeadership returns; undefined until it is called. */
  leading: Promise<void> | undefined;
}

/**
 * After a failed attempt (autoRequeue): the next one a second later, for as long as the
 * selector is started, as Curator's LeaderSelector requeues forever. A fixed pace, not a
 * growing one: such a failure is mostly an outage, and the attempt itself waits for the
 * connection, so a longer pause would only delay the election once the server is back.
 */
const REQUEUE_AFTER_FAILURE = new RetryForever({ retryIntervalMs: 1000 });
/**
 * The hand-over pause after giving leadership up (not a backoff: nothing failed): at most this
 * long, so that the successor's read goes before our new node. See #requeueAfter.
 */
const MAX_REQUEUE_DELAY_MS = 50;

/** How an attempt ended. */
interface Outcome {
  /** It failed for a reason other than a cancel or a closed client: the error. */
  readonly failed: { readonly error: unknown } | undefined;
  /** It held the lock: how long giving the node up took. */
  readonly releaseMs?: number | undefined;
}

/**
 * The selector whose takeLeadership the current code runs in (for close() from inside it).
 * Turned off whenever no takeLeadership runs in the process: while any AsyncLocalStorage is on,
 * Node 20 runs a hook for every promise the process creates (about 15% more CPU per lock
 * cycle, measured), and a participant waiting in line has no use for it.
 */
const leading = new AsyncLocalStorage<LeaderSelector>();
/** How many takeLeadership calls run now, in every selector of the process. */
let takeLeadershipsRunning = 0;

/**
 * Runs `fn` in the async context this module was loaded in: outside any lock flow of the
 * caller (the selector's mutex holds are its own, unscoped) and outside any takeLeadership. An
 * attempt started by the one before it (autoRequeue) would otherwise run inside that attempt's
 * context, and every attempt would be a child of the previous one.
 */
const outsideAnyFlow = AsyncResource.bind(<T>(fn: () => T): T => fn());

/** Why the leader's signal aborts on an error-policy state. */
function stateReason(state: ConnectionState, path: string): Error {
  return state === ConnectionState.LOST
    ? new SessionExpiredError({ path, detail: 'session LOST: leadership is gone' })
    : new ConnectionLossError({ path, detail: 'connection SUSPENDED: leadership may be lost' });
}

/**
 * Leader election where the leader runs a task (Curator's `LeaderSelector`), on an
 * `InterProcessMutex` at `path`, node for node compatible with Curator 5.x: Java and Node
 * participants share one election. Each participant queues with an ephemeral sequential
 * `_c_<uuid>-lock-` node holding its id; the first in line leads, each other one watches only
 * the node ahead of it.
 *
 * Leadership lasts while `takeLeadership(signal)` runs. `signal` aborts when the client enters
 * an error-policy state (SUSPENDED or LOST under 'standard', LOST only under 'session'), on
 * `interruptLeadership()`, and on `close()`. That is Curator's `CancelLeadershipException`
 * behaviour without exceptions; and, as after CURATOR-518/671, an error state also cancels a
 * participant still waiting in line, so leadership it wins from a stale queue position is
 * never handed out. This object never runs two `takeLeadership` calls at once, and keeps its
 * node until the running one returns: a leader that ignores its signal is a bug in that
 * leader, but it is never joined by a second one through this object.
 *
 * @example
 * const selector = new LeaderSelector(client, '/app/leader', async (signal) => {
 *   while (!signal.aborted) await runOneBatch(signal);
 * }, { id: 'worker-3', autoRequeue: true });
 * await selector.start();
 */
export class LeaderSelector {
  readonly #client: FrameworkClient;
  readonly #path: string;
  readonly #id: string;
  readonly #takeLeadership: TakeLeadership;
  readonly #autoRequeue: boolean;
  readonly #concurrency: number;
  readonly #mutex: SelectorMutex;
  readonly #logger: Logger;
  readonly #leadership: LeadershipState;
  #state: LeaderState = LeaderState.LATENT;
  #attempt: Attempt | undefined;
  #stopListening: (() => void) | undefined;
  /** Runs attempts: one per kick, and again after a failed one while autoRequeue says so. */
  readonly #attempts: BackgroundRetry;
  /** The hand-over pause before queueing again after leading. */
  #handOverTimer: NodeJS.Timeout | undefined;

  constructor(
    client: FrameworkClient,
    path: string,
    listener: LeaderSelectorListener | TakeLeadership,
    options: LeaderSelectorOptions = {},
  ) {
    checkClient('LeaderSelector', client);
    validatePath(path);
    checkRecipeOptions('LeaderSelector', options, ['id', 'autoRequeue', 'concurrency']);
    this.#takeLeadership = checkSelectorListener(listener);
    this.#id = checkId(options.id);
    this.#autoRequeue = booleanOption('autoRequeue', options.autoRequeue, false);
    this.#concurrency = checkConcurrency(options.concurrency, DEFAULT_PARTICIPANT_READ_CONCURRENCY);
    this.#client = client;
    this.#path = path;
    const telemetry = new LeaderTelemetry(client, 'LeaderSelector', path);
    this.#mutex = new SelectorMutex(client, path, this.#id, telemetry);
    this.#logger = client.logger.child({ component: 'LeaderSelector', path });
    this.#leadership = new LeadershipState(client, this.#logger, telemetry);
    this.#attempts = new BackgroundRetry(() => this.#attemptOnce(), {
      policy: REQUEUE_AFTER_FAILURE,
      // Whatever made the attempt fail (it was reported already), Curator queues again.
      isRetryable: () => true,
      onRetry: ({ retryCount, delayMs }) => {
        this.#logger.debug('attempt failed; queueing again', { retryCount, delayMs });
      },
    });
  }

  /** The election's path. */
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
   * True while `takeLeadership` runs. (This was the `hasLeadership` property; `hasLeadership`
   * is now Curator's method, which returns the same.)
   */
  get isLeader(): boolean {
    return this.#leadership.value;
  }

  /** Curator's `hasLeadership()`: {@link isLeader}. */
  hasLeadership(): boolean {
    return this.#leadership.value;
  }

  /** Curator's `getId()`: {@link id}. */
  getId(): string {
    return this.#id;
  }

  /** Leadership over time: true while `takeLeadership` runs. Replays the current value. */
  get leadershipStates(): IterableObservable<boolean> {
    return this.#leadership.changes;
  }

  /** Background failures: a `takeLeadership` that threw, a listener that threw, a failed attempt. */
  get errors(): IterableObservable<LeaderError> {
    return this.#leadership.errors;
  }

  /**
   * Calls `listener` (asynchronously, isolated) when leadership starts ('isLeader') or ends
   * ('notLeader'). Returns the function that removes it.
   */
  on(event: LeadershipEvent, listener: LeadershipListener): () => void {
    return this.#leadership.on(event, listener);
  }

  /**
   * Joins the election (in the background; resolves at once). A second call rejects, and so does
   * a call on a client not started yet or closed, before anything (the selector can be started
   * once the client is).
   */
  start(): Promise<void> {
    if (this.#state !== LeaderState.LATENT) {
      return Promise.reject(
        new IllegalStateError(`start() on a ${this.#state} LeaderSelector`, {
          path: this.#path,
        }),
      );
    }
    try {
      // Its first attempt would fail in the background, out of the caller's sight.
      assertClientStarted(this.#client, this.#path);
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on unchanged (a ZooKeeperError)
      return Promise.reject(error);
    }
    this.#state = LeaderState.STARTED;
    this.#stopListening = connectionStreamOf(this.#client).onState((state) => {
      if (isErrorState(state, this.#client.errorPolicy)) {
        this.#attempt?.cancel.abort(stateReason(state, this.#path));
      }
    });
    this.#queue();
    return Promise.resolve();
  }

  /**
   * Queues again if this participant is neither waiting nor leading (Curator's `requeue()`):
   * true if it queued, false if an attempt was already under way. Throws unless started.
   */
  requeue(): boolean {
    if (this.#state !== LeaderState.STARTED) {
      throw new IllegalStateError(`requeue() on a ${this.#state} LeaderSelector`, {
        path: this.#path,
      });
    }
    return this.#queue();
  }

  /**
   * Aborts the leader's signal if this participant leads (Curator's `interruptLeadership()`);
   * leadership ends when `takeLeadership` returns. Does nothing otherwise.
   */
  interruptLeadership(): void {
    if (!this.isLeader) return;
    this.#attempt?.cancel.abort(
      new DOMException('leadership interrupted by interruptLeadership()', 'AbortError'),
    );
  }

  /**
   * Leaves the election: aborts the leader's signal or the wait in line, waits for
   * `takeLeadership` to return, deletes this participant's node, and removes its listeners.
   * Twice is a no-op. A `takeLeadership` that ignores its signal keeps `close()` waiting, and
   * keeps the node: leadership is never handed on while it may still run. Called from inside
   * `takeLeadership`, it resolves without waiting; the node goes once `takeLeadership` returns.
   *
   * Only `takeLeadership` can hold it up: the node's delete is waited for only while the
   * client is connected. In an outage (or before the first connection) it is left to the
   * client's guaranteed deletes, sent when the connection returns, and to the session's end.
   */
  async close(): Promise<void> {
    if (this.#state === LeaderState.CLOSED) return;
    this.#state = LeaderState.CLOSED;
    this.#stopListening?.();
    this.#attempts.close();
    clearTimeout(this.#handOverTimer);
    const attempt = this.#attempt;
    if (attempt !== undefined) {
      attempt.cancel.abort(new ClosedError({ path: this.#path, detail: 'LeaderSelector closed' }));
      // From inside takeLeadership, waiting for it to return would wait forever; the node goes
      // (and the stream ends) as soon as it does return.
      if (leading.getStore() === this) {
        const end = (): void => this.#leadership.close();
        attempt.done.then(end, end);
        return;
      }
      // takeLeadership returning is the one thing worth waiting for; the rest only while the
      // server can answer.
      await attempt.leading;
      await whileConnected(this.#client).wait(attempt.done);
      // A wait in line that close() cut short sends its node's delete without waiting for
      // the answer, as any cancelled acquire does; close() waits for it (bounded as a
      // release's wait is), so the node is gone when close() resolves.
      await this.#mutex.leftLine;
    }
    this.#leadership.close();
  }

  /** Same as close(): for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /**
   * Every participant in election order, the leader first (Curator's `getParticipants()`);
   * read from ZooKeeper, so it may briefly disagree with `isLeader`. Works before
   * `start()` too: an observer needs no node of its own. Aborting `signal` rejects with its
   * reason at once, in any connection state (every read is given it).
   */
  async getParticipants(options: SignalOptions = {}): Promise<Participant[]> {
    const signal = checkSignalOptions(options);
    return readParticipants(
      this.#client,
      await this.#mutex.getParticipantNodes({ signal }),
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
    return readLeader(this.#client, await this.#mutex.getParticipantNodes({ signal }), signal);
  }

  /**
   * Starts an attempt now unless one is under way or the selector is not started; a pending
   * requeue (after a failure, or the hand-over pause) is then not waited for.
   */
  #queue(): boolean {
    if (this.#attempt !== undefined || this.#state !== LeaderState.STARTED) return false;
    clearTimeout(this.#handOverTimer);
    this.#handOverTimer = undefined;
    this.#attempts.kick();
    return true;
  }

  /**
   * One attempt, as the BackgroundRetry's task: rejects when it failed and autoRequeue wants
   * another, so the retry policy paces the requeue.
   */
  async #attemptOnce(): Promise<void> {
    if (this.#attempt !== undefined || this.#state !== LeaderState.STARTED) return;
    const attempt: Attempt = {
      cancel: new AbortController(),
      done: Promise.resolve(),
      leading: undefined,
    };
    this.#attempt = attempt;
    // Outside the caller's context: the caller's lock flow, if any, is not ours.
    let outcome: Outcome = { failed: undefined };
    attempt.done = outsideAnyFlow(async () => {
      outcome = await this.#run(attempt);
    });
    await attempt.done;
    if (outcome.failed !== undefined && this.#requeues()) throw outcome.failed.error;
  }

  async #run(attempt: Attempt): Promise<Outcome> {
    let outcome: Outcome = { failed: undefined };
    try {
      outcome = await this.#elect(attempt);
    } finally {
      this.#attempt = undefined;
      if (outcome.failed === undefined && this.#requeues()) this.#requeueAfter(outcome);
    }
    return outcome;
  }

  /** Whether an attempt that ended is followed by another. */
  #requeues(): boolean {
    // A closed client never comes back: requeueing on it would spin.
    return (
      this.#autoRequeue && this.#state === LeaderState.STARTED && this.#client.state === 'STARTED'
    );
  }

  /** Queues again after an attempt that did not fail (a failed one is the retry policy's). */
  #requeueAfter({ releaseMs }: Outcome): void {
    if (releaseMs === undefined) {
      this.#queue();
      return;
    }
    // Not a backoff (nothing failed): a hand-over pause. We just gave leadership up; the next
    // in line is being told and is reading the children to confirm, and our new node is a
    // write the server would handle alongside that read and delay it (measured: about 0.8 ms
    // of a 2 ms hand-over on loopback). Wait one round trip of our own (the delete's), at most
    // MAX_REQUEUE_DELAY_MS, so the successor's read goes first.
    this.#handOverTimer = setTimeout(
      () => this.#queue(),
      Math.min(releaseMs, MAX_REQUEUE_DELAY_MS),
    );
  }

  /** One attempt: queue, lead, give the node up. */
  async #elect(attempt: Attempt): Promise<Outcome> {
    const { cancel } = attempt;
    this.#mutex.attemptStarting();
    try {
      await this.#mutex.acquire(undefined, { signal: cancel.signal });
    } catch (error) {
      if (cancel.signal.aborted || isClosed(error)) return { failed: undefined };
      this.#leadership.report(error, 'waiting for leadership');
      return { failed: { error } };
    }
    let releaseMs: number;
    try {
      await this.#lead(attempt);
    } finally {
      releaseMs = await this.#release();
    }
    return { failed: undefined, releaseMs };
  }

  async #lead(attempt: Attempt): Promise<void> {
    const { cancel } = attempt;
    // The hold's loss covers error states since the lock was confirmed; `cancel` covers
    // interruptions, close() and states that came while we waited. The leader gets `cancel`'s
    // signal, which a loss aborts too, with the reason the hold's `lost` signal would carry.
    // The hold's own signal is never made here: making it and listening to it cost a fifth of
    // the way from the confirming read to takeLeadership. The subscription ends with the hold.
    this.#mutex.whenHoldLost((reason) => cancel.abort(reason));
    const { signal } = cancel;
    // Won from a queue position that is already in doubt, or won on a look the session is no
    // longer proven since (the mutex grants only valid holds; this is the last line before
    // takeLeadership): do not hand it out. The node goes, and autoRequeue queues again.
    const hold = this.#mutex.hold;
    if (signal.aborted || hold?.isValid() !== true) return;
    this.#leadership.set(true);
    const leadership = new SelectorLeadership(this.#client, signal, hold);
    const led = this.#runTakeLeadership(signal, leadership);
    // After takeLeadership started: its first steps do not wait for this request.
    this.#mutex.announceHold(signal);
    attempt.leading = led;
    await led;
  }

  async #runTakeLeadership(signal: AbortSignal, leadership: SelectorLeadership): Promise<void> {
    takeLeadershipsRunning++;
    try {
      await leading.run(this, () => this.#takeLeadership(signal, leadership));
    } catch (error) {
      // Rejecting with the signal's reason is the normal way to stop.
      if (!(signal.aborted && error === signal.reason)) {
        this.#leadership.report(error, 'takeLeadership');
      }
    } finally {
      // The last takeLeadership of the process returned: nothing needs the context now.
      if (--takeLeadershipsRunning === 0) leading.disable();
      leadership.end();
      this.#leadership.set(false);
    }
  }

  /** Deletes our node; resolves how long that took. */
  async #release(): Promise<number> {
    const startedAt = performance.now();
    try {
      await this.#mutex.release();
    } catch (error) {
      // The delete is guaranteed: the client keeps trying in the background (or the session,
      // and the node with it, is gone).
      if (!isClosed(error)) {
        this.#logger.debug('could not delete our node yet; retrying in the background', { error });
      }
    }
    return performance.now() - startedAt;
  }
}
