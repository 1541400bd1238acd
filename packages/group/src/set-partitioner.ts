import { BehaviorSubject, type Subscription } from 'rxjs';
import {
  ClosedError,
  ConnectionState,
  type FrameworkClient,
  IllegalStateError,
  type IterableObservable,
  SessionExpiredError,
} from '@zkrecipes/framework';
import {
  abortableSleep,
  assertClientStarted,
  checkClient,
  checkWaitOptions,
  EventDispatcher,
  RecipeState,
  type RecipeError,
  type WaitLimitOptions,
  onAbort,
} from '@zkrecipes/framework/recipe-support';
import type { LockHold } from '@zkrecipes/locks';
import { GroupMember } from './group-member.js';
import { checkedShare } from './partition-function.js';
import { PartitionHolds } from './partition-holds.js';
import {
  type SetPartitionerConfig,
  setPartitionerConfig,
  type SetPartitionerOptions,
} from './set-partitioner-options.js';
import { SetPartitionerState } from './set-partitioner-state.js';

/** The pause before allocating again after an acquire failed with an error. */
const RETRY_PAUSE_MS = 1000;

/**
 * Shares a set of partitions among the members of a group, each partition owned by one
 * member at a time (kazoo's `SetPartitioner`; Curator has no such recipe). Members join the
 * group `<path>/party` (a {@link GroupMember}); once the group has stayed unchanged for
 * `timeBoundaryMs`, each member works out its share with the partition function and takes the
 * lock `<path>/locks/<partition>` (an `InterProcessMutex`) of every partition in it. When the
 * group changes, every member goes to RELEASE, gives its locks back and allocates again; a
 * partition still held by a member that has not released yet (or that died and whose session
 * has not expired yet) simply makes the next owner wait for the lock. Ownership is the lock:
 * each owned partition's hold carries a fencing token and guarded writes (`holdOf(p)`).
 *
 * ```ts
 * const partitioner = new SetPartitioner(client, '/app/partitioner', { partitions });
 * await partitioner.start();
 * for await (const state of partitioner.states) {
 *   if (state === 'ACQUIRED') startWork(partitioner.partitions);
 *   else if (state === 'RELEASE') await stopWork().then(() => partitioner.releaseSet());
 *   else if (state === 'FAILURE') break;
 * }
 * ```
 */
export class SetPartitioner {
  readonly #client: FrameworkClient;
  readonly #path: string;
  readonly #config: SetPartitionerConfig;
  readonly #partitionSet: ReadonlySet<string>;
  readonly #member: GroupMember;
  readonly #holds: PartitionHolds;
  readonly #subject = new BehaviorSubject<SetPartitionerState>(SetPartitionerState.ALLOCATING);
  readonly #dispatcher: EventDispatcher<SetPartitionerState>;
  #lifecycle: RecipeState = RecipeState.LATENT;
  #state: SetPartitionerState = SetPartitionerState.ALLOCATING;
  /** Set once FAILURE is reached (by a failure or by close()): nothing runs after. */
  #ended = false;
  #failureReason: unknown;
  #owned: readonly string[] = [];
  /** The group as last seen: sorted ids, a version bumped on each change, whether read yet. */
  #members: readonly string[] = [];
  #membersVersion = 0;
  #changedAt = 0;
  #viewLoaded = false;
  /** Aborted by a change of the group, a lost hold, a failure or close(): ends the phase. */
  #phase = new AbortController();
  /** Resolves the wait of RELEASE; set while in RELEASE. */
  #releaseRequested: (() => void) | undefined;
  #releasing: Promise<void> | undefined;
  #running: Promise<void> | undefined;
  #stopWatchingConnection: (() => void) | undefined;
  #closing: Promise<void> | undefined;
  /** Aborted when FAILURE is reached: ends the waits of the allocation loop. */
  readonly #closer = new AbortController();

  constructor(client: FrameworkClient, path: string, options: SetPartitionerOptions) {
    checkClient('SetPartitioner', client);
    this.#config = setPartitionerConfig(path, options);
    this.#client = client;
    this.#path = path;
    this.#partitionSet = new Set(this.#config.partitions);
    this.#member = new GroupMember(client, this.#config.partyPath, this.#config.identifier);
    this.#holds = new PartitionHolds(client, this.#config.locksPath);
    this.#dispatcher = new EventDispatcher(this.#subject, client, 'states subscriber');
  }

  /** This member's id in the group. */
  get identifier(): string {
    return this.#config.identifier;
  }

  /** The partitioner's node: the group is `<path>/party`, the locks `<path>/locks/<p>`. */
  get path(): string {
    return this.#path;
  }

  /** The current state; ALLOCATING before start(), FAILURE after close(). */
  get state(): SetPartitionerState {
    return this.#state;
  }

  /**
   * The states over time, in order; replays the current one to each new subscriber (also
   * `for await`). Ends after FAILURE.
   */
  get states(): IterableObservable<SetPartitionerState> {
    return this.#dispatcher.events;
  }

  /** Background failures: of the group membership, of acquires and releases. */
  get errors(): IterableObservable<RecipeError> {
    return this.#dispatcher.errors;
  }

  /** Why the partitioner is in FAILURE: undefined after close(), else the error. */
  get failureReason(): unknown {
    return this.#failureReason;
  }

  /** The partitions this member owns: its share while ACQUIRED, empty in any other state. */
  get partitions(): readonly string[] {
    return this.#state === SetPartitionerState.ACQUIRED ? this.#owned : [];
  }

  /**
   * The lock hold of an owned partition while ACQUIRED: its `fencingToken`, `lost` signal,
   * `isValid()` and `transaction(ops)` (a write that lands only while the hold does).
   * Undefined for a partition this member does not own.
   */
  holdOf(partition: string): LockHold | undefined {
    if (this.#state !== SetPartitionerState.ACQUIRED) return undefined;
    return this.#holds.holdOf(partition);
  }

  /**
   * Joins the group and starts allocating, in the background; resolves at once. A second
   * start rejects, and so does a start on a client not started yet or closed.
   */
  async start(): Promise<void> {
    if (this.#lifecycle !== RecipeState.LATENT) {
      throw new IllegalStateError(`start() on a ${this.#lifecycle} SetPartitioner`, {
        path: this.#path,
      });
    }
    assertClientStarted(this.#client, this.#path);
    this.#lifecycle = RecipeState.STARTED;
    this.#member.on('membersChanged', (view) => this.#membersChanged([...view.keys()]));
    this.#member.errors.subscribe(({ error, context }) => this.#dispatcher.forward(error, context));
    const subscription = this.#client.connectionStates.subscribe({
      next: (state) => {
        if (state === ConnectionState.LOST) {
          this.#fail(new SessionExpiredError({ path: this.#path, detail: 'the session was lost' }));
        }
      },
      complete: () => this.#fail(new ClosedError({ path: this.#path })),
    });
    this.#stopWatchingConnection = () => subscription.unsubscribe();
    await this.#member.start();
    this.#running = this.#run().catch((error: unknown) => this.#fail(error));
  }

  /**
   * Resolves true once the partitioner is ACQUIRED (at once if it is), false on timeout, abort
   * or FAILURE.
   */
  waitForAcquired(options: WaitLimitOptions = {}): Promise<boolean> {
    checkWaitOptions(options);
    const { timeoutMs, signal } = options;
    return new Promise<boolean>((resolve) => {
      let done = false;
      let timer: NodeJS.Timeout | undefined;
      const state: { subscription?: Subscription; stopListening?: () => void } = {};
      const finish = (value: boolean): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        state.stopListening?.();
        state.subscription?.unsubscribe();
        resolve(value);
      };
      const subscription = this.#subject.subscribe({
        next: (state) => {
          if (state === SetPartitionerState.ACQUIRED) finish(true);
          else if (state === SetPartitionerState.FAILURE) finish(false);
        },
        complete: () => finish(false),
      });
      if (done) {
        subscription.unsubscribe();
        return;
      }
      state.subscription = subscription;
      if (signal?.aborted === true) return finish(false);
      if (signal !== undefined) state.stopListening = onAbort(signal, () => finish(false));
      if (timeoutMs !== undefined) timer = setTimeout(() => finish(false), timeoutMs);
    });
  }

  /**
   * Gives back every partition in RELEASE (resolves once the locks are released: the server
   * has answered while connected, at once in an outage), after which the partitioner allocates
   * again. In any other state it does nothing.
   */
  releaseSet(): Promise<void> {
    if (this.#state !== SetPartitionerState.RELEASE) return this.#releasing ?? Promise.resolve();
    this.#releasing ??= this.#releaseHolds().then(() => {
      this.#releasing = undefined;
      const requested = this.#releaseRequested;
      this.#releaseRequested = undefined;
      requested?.();
    });
    return this.#releasing;
  }

  /**
   * Releases every partition, leaves the group and ends in FAILURE (kazoo's `finish()`);
   * prompt in any connection state (releases and the leave go on in the background during an
   * outage). Twice is a no-op.
   */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  /** Calls `close()`, so `await using` releases this at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #close(): Promise<void> {
    const started = this.#lifecycle === RecipeState.STARTED;
    this.#lifecycle = RecipeState.CLOSED;
    this.#end(undefined);
    if (!started) return;
    await this.#running;
    await Promise.all([this.#releaseHolds(), this.#member.close()]);
  }

  /** The allocation loop: ALLOCATING -> ACQUIRED -> RELEASE -> ALLOCATING ... */
  async #run(): Promise<void> {
    await this.#member.waitForInitialCreate({ signal: this.#closer.signal });
    while (!this.#ended) {
      const phase = await this.#stableGroup();
      if (phase === undefined) return;
      const share = checkedShare(
        this.#config.partitionFunction(this.#members, this.#config.partitions, this.identifier),
        this.#partitionSet,
      );
      let acquired: boolean;
      try {
        acquired = await this.#holds.acquire(share, phase.signal, () => phase.abort());
      } catch (error) {
        if (this.#ended) return;
        // The retry policy gave up (or the locks path refuses us): start over after a pause.
        this.#dispatcher.report(error, `acquiring partitions under ${this.#config.locksPath}`);
        await this.#releaseHolds();
        await abortableSleep(RETRY_PAUSE_MS, this.#closer.signal).catch(() => undefined);
        continue;
      }
      if (this.#ended) return;
      if (!acquired || phase.signal.aborted || !this.#holds.allValid()) {
        await this.#releaseHolds();
        continue;
      }
      this.#owned = share;
      this.#setState(SetPartitionerState.ACQUIRED);
      await new Promise<void>((resolve) => {
        if (phase.signal.aborted) resolve();
        else onAbort(phase.signal, resolve);
      });
      if (this.#ended) return;
      const released = new Promise<void>((resolve) => (this.#releaseRequested = resolve));
      this.#setState(SetPartitionerState.RELEASE);
      if (this.#config.autoRelease) void this.releaseSet();
      await released;
      if (this.#ended) return;
      this.#setState(SetPartitionerState.ALLOCATING);
    }
  }

  /**
   * Waits until the group has been read and has stayed unchanged for `timeBoundaryMs`;
   * resolves the phase (not aborted) that a later change will abort, or undefined once ended.
   */
  async #stableGroup(): Promise<AbortController | undefined> {
    for (;;) {
      if (this.#ended) return undefined;
      const version = this.#membersVersion;
      const phase = new AbortController();
      this.#phase = phase;
      try {
        if (!this.#viewLoaded) {
          await new Promise<void>((_, reject) => {
            onAbort(phase.signal, () => reject(new Error('changed')));
          });
        }
        // Unchanged for timeBoundaryMs since the last change, however long the release took.
        const sinceChangeMs = performance.now() - this.#changedAt;
        await abortableSleep(
          Math.max(0, this.#config.timeBoundaryMs - sinceChangeMs),
          phase.signal,
        );
      } catch {
        continue;
      }
      if (version === this.#membersVersion && !this.#ended) return phase;
    }
  }

  #membersChanged(ids: readonly string[]): void {
    const sorted = [...ids].sort();
    const changed = !this.#viewLoaded || sorted.join('/') !== this.#members.join('/');
    this.#viewLoaded = true;
    if (!changed) return;
    this.#members = sorted;
    this.#membersVersion++;
    this.#changedAt = performance.now();
    this.#phase.abort();
  }

  async #releaseHolds(): Promise<void> {
    const failures = await this.#holds.release();
    for (const failure of failures) {
      this.#dispatcher.report(failure, `releasing a partition under ${this.#config.locksPath}`);
    }
  }

  #setState(state: SetPartitionerState): void {
    if (this.#state === state) return;
    this.#state = state;
    this.#dispatcher.emit(state);
  }

  /** A failure of the session, the client or the partition function: terminal. */
  #fail(reason: unknown): void {
    if (this.#ended) return;
    // The client's close is a shutdown, not a failure to report; the rest goes to `errors`.
    if (!(reason instanceof ClosedError)) {
      this.#dispatcher.report(reason, `SetPartitioner ${this.#path}`);
    }
    this.#end(reason);
    // Nothing of ours is left to keep: the holds and the group node go in the background, once
    // the loop has stopped (it may be acquiring).
    const running = this.#running;
    void (async () => {
      await running;
      await this.#releaseHolds();
      await this.#member.close();
    })().catch((error: unknown) => this.#dispatcher.report(error, 'leaving the group'));
  }

  /** Enters FAILURE for good: stops every wait, completes the states after FAILURE. */
  #end(reason: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#failureReason = reason;
    this.#stopWatchingConnection?.();
    this.#closer.abort();
    this.#phase.abort();
    const requested = this.#releaseRequested;
    this.#releaseRequested = undefined;
    requested?.();
    this.#setState(SetPartitionerState.FAILURE);
    // After the delivery of FAILURE, which is queued ahead of this.
    queueMicrotask(() => this.#dispatcher.close());
  }
}
