import { BehaviorSubject, merge } from 'rxjs';
import {
  CreateMode,
  type FrameworkClient,
  IllegalStateError,
  InvalidArgumentError,
  validatePath,
  type IterableObservable,
  type SignalOptions,
  iterableObservable,
} from '@zkrecipes/framework';
import {
  assertClientStarted,
  checkClient,
  checkEventListener,
  checkRecipeOptions,
  EventDispatcher,
  positiveIntegerOption,
  describeValue,
} from '@zkrecipes/framework/recipe-support';
import { DEFAULT_CACHE_CONCURRENCY, RecipeState, type RecipeError } from '@zkrecipes/caches';
import { GroupTelemetry } from './group-telemetry.js';
import { GroupView } from './group-view.js';
import { PersistentNode, type WaitForInitialCreateOptions } from './persistent-node.js';

/** Options of {@link GroupMember}. */
export interface GroupMemberOptions {
  /** Member reads in flight at most. Default: 64. */
  readonly concurrency?: number | undefined;
}

/** The group as one member sees it: member id -> payload. */
export type GroupMembers = ReadonlyMap<string, Buffer>;

/** A listener for membership changes, given the new view. */
export type GroupMembersListener = (members: GroupMembers) => unknown;

/**
 * Membership of a group (Curator's `GroupMember`): this process is the EPHEMERAL node
 * `<groupPath>/<memberId>` carrying its payload (a {@link PersistentNode}, so it comes back
 * after a session loss), and it watches the group with a persistent recursive watch (as
 * Curator 5's CuratorCache does), so every member knows every other member and its payload.
 *
 * Beyond Curator (which has no listener and is polled), membership changes are pushed: the
 * {@link members} stream and `on('membersChanged')` deliver each new view as soon as the view
 * has it, a join one read after the member's create reaches the server, a leave with the
 * notification of its delete.
 *
 * ```ts
 * const member = new GroupMember(client, '/app/workers', 'worker-3', Buffer.from('10.0.0.3'));
 * member.members.subscribe((view) => console.log([...view.keys()]));
 * await member.start();
 * ```
 */
export class GroupMember {
  readonly #client: FrameworkClient;
  readonly #groupPath: string;
  readonly #id: string;
  readonly #node: PersistentNode;
  readonly #view: GroupView;
  readonly #subject: BehaviorSubject<GroupMembers>;
  readonly #dispatcher: EventDispatcher<GroupMembers>;
  readonly #telemetry: GroupTelemetry;
  readonly #errors: IterableObservable<RecipeError>;
  #state: RecipeState = RecipeState.LATENT;
  #recomputeQueued = false;
  /**
   * Whether listeners have been given a view yet. The stream starts with this member alone
   * (replayed to every subscriber); listeners get the first view computed after start even
   * when it is that same view (a lone member), so both hear the initial view.
   */
  #listenersHeard = false;

  constructor(
    client: FrameworkClient,
    groupPath: string,
    memberId: string,
    payload: Uint8Array = new Uint8Array(0),
    options: GroupMemberOptions = {},
  ) {
    checkClient('GroupMember', client);
    validatePath(groupPath);
    if (typeof memberId !== 'string' || memberId === '' || memberId.includes('/')) {
      throw new InvalidArgumentError(
        `memberId must be a non-empty node name without "/"; got ${describeValue(memberId)}`,
        { path: groupPath },
      );
    }
    checkRecipeOptions('GroupMember', options, ['concurrency']);
    const concurrency = positiveIntegerOption(
      'concurrency',
      options.concurrency,
      DEFAULT_CACHE_CONCURRENCY,
    );
    const memberPath = groupPath === '/' ? `/${memberId}` : `${groupPath}/${memberId}`;
    validatePath(memberPath);
    this.#client = client;
    this.#groupPath = groupPath;
    this.#id = memberId;
    this.#node = new PersistentNode(client, memberPath, CreateMode.EPHEMERAL, payload);
    this.#subject = new BehaviorSubject<GroupMembers>(new Map([[memberId, Buffer.from(payload)]]));
    this.#dispatcher = new EventDispatcher(this.#subject, client, 'membersChanged listener');
    this.#telemetry = new GroupTelemetry(client, groupPath, () => this.getCurrentMembers().size);
    this.#errors = iterableObservable(merge(this.#dispatcher.errors, this.#node.errors));
    this.#view = new GroupView(client, groupPath, {
      concurrency,
      onChange: () => {
        this.#telemetry.changed();
        this.#queueRecompute();
      },
      onError: (error, what) => this.#dispatcher.report(error, what),
    });
  }

  /** This member's id (its node's name). */
  get id(): string {
    return this.#id;
  }

  /** The group's node, parent of every member node. */
  get groupPath(): string {
    return this.#groupPath;
  }

  /** LATENT until start(), STARTED, CLOSED after close(). */
  get state(): RecipeState {
    return this.#state;
  }

  /**
   * The membership view over time (id -> payload), this member always included; a new Map
   * per change. Replays the current view to each new subscriber (a BehaviorSubject).
   */
  get members(): IterableObservable<GroupMembers> {
    return this.#dispatcher.events;
  }

  /** Background failures of the member node, the group view and the listeners. */
  get errors(): IterableObservable<RecipeError> {
    return this.#errors;
  }

  /** Adds a listener for membership changes; returns the function that removes it. */
  on(event: 'membersChanged', listener: GroupMembersListener): () => void {
    checkEventListener('membersChanged', event, listener);
    return this.#dispatcher.add(listener);
  }

  /**
   * Joins the group and starts watching it. Resolves at once: the member node is created in
   * the background (see {@link waitForInitialCreate}) while the watch is added and the group
   * read. A second start rejects, and so does a start on a client not started yet or closed,
   * before anything (the member can be started once the client is).
   */
  async start(): Promise<void> {
    if (this.#state !== RecipeState.LATENT) {
      throw new IllegalStateError(`start() on a ${this.#state} GroupMember`, {
        path: this.#groupPath,
      });
    }
    // Its node and the group's read would fail in the background, out of the caller's sight.
    assertClientStarted(this.#client, this.#groupPath);
    this.#state = RecipeState.STARTED;
    await this.#node.start();
    // A failed first load is reported; the view loads again (watch included) on RECONNECTED.
    const loaded = this.#telemetry.started();
    this.#view.start().then(
      // The group has been listed: listeners get the initial view even if nothing changed.
      () => {
        loaded();
        this.#queueRecompute();
      },
      (error: unknown) => {
        if (this.#state === RecipeState.STARTED) {
          this.#dispatcher.report(error, 'loading the group');
        }
      },
    );
  }

  /** Resolves true once this member's node exists, false on timeout or close. */
  waitForInitialCreate(options: WaitForInitialCreateOptions = {}): Promise<boolean> {
    return this.#node.waitForInitialCreate(options);
  }

  /**
   * The current view: member id -> payload, sorted by id, this member always included (with
   * its own payload until the cache has read it). No guarantee of accuracy: the latest view.
   */
  getCurrentMembers(): Map<string, Buffer> {
    const members = new Map<string, Buffer>();
    let self = false;
    for (const id of [...this.#view.members.keys()].sort()) {
      self ||= id === this.#id;
      members.set(id, this.#view.members.get(id)!);
    }
    if (!self) members.set(this.#id, this.#node.data);
    return members;
  }

  /**
   * Changes this member's payload; resolves once the server holds it. Aborting `signal` ends
   * the wait, not the write (see PersistentNode.setData).
   */
  setThisData(payload: Uint8Array, options: SignalOptions = {}): Promise<void> {
    return this.#node.setData(payload, options);
  }

  /** The member id of a member node's path (its last segment). */
  idFromPath(path: string): string {
    validatePath(path);
    return path.slice(path.lastIndexOf('/') + 1);
  }

  /**
   * Leaves the group (deletes this member's node) and stops watching it; completes the
   * stream. Resolves once the server confirms the delete while the client is connected, at
   * once otherwise: the delete is then left to the client's guaranteed deletes (sent when the
   * connection returns) and to the end of the session, as for {@link PersistentNode.close}.
   * Twice is a no-op.
   */
  async close(): Promise<void> {
    if (this.#state === RecipeState.CLOSED) return;
    this.#state = RecipeState.CLOSED;
    this.#telemetry.stopped();
    this.#dispatcher.close();
    // The watch's removal goes out just before the node's delete, so the delete's answer comes
    // after the removal's: waiting for the one is waiting for both. In an outage the removal
    // is not waited for (the server's watch goes with its connection).
    this.#view.close().catch((error: unknown) => {
      this.#dispatcher.report(error, 'removing the group watch');
    });
    await this.#node.close();
  }

  /** Calls `close()`, so `await using` releases this at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** One new view per burst of changes (they arrive in batches), and only if it differs. */
  #queueRecompute(): void {
    if (this.#recomputeQueued) return;
    this.#recomputeQueued = true;
    queueMicrotask(() => {
      this.#recomputeQueued = false;
      if (this.#state !== RecipeState.STARTED) return;
      const next = this.getCurrentMembers();
      if (!sameMembers(this.#subject.value, next)) this.#dispatcher.emit(next);
      else if (!this.#listenersHeard) this.#dispatcher.emitToListeners(next);
      else return;
      this.#listenersHeard = true;
    });
  }
}

function sameMembers(a: GroupMembers, b: GroupMembers): boolean {
  if (a.size !== b.size) return false;
  for (const [id, payload] of a) {
    const other = b.get(id);
    if (other === undefined || !other.equals(payload)) return false;
  }
  return true;
}
