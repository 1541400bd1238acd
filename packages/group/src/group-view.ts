import pLimit, { type LimitFunction } from 'p-limit';
import {
  ClosedError,
  ConnectionState,
  isNoNode,
  joinPath,
  type FrameworkClient,
  type PersistentWatch,
  type WatchedEvent,
} from '@zkrecipes/framework';
import { connectionStreamOf } from '@zkrecipes/framework/recipe-support';

/** What a {@link GroupView} needs besides the client and the path. */
export interface GroupViewOptions {
  /** Member reads in flight at most. */
  readonly concurrency: number;
  /** Called (synchronously) after every change of the view. */
  readonly onChange: () => void;
  /** A background read or watch that failed for a reason other than a lost connection. */
  readonly onError: (error: unknown, what: string) => void;
}

/**
 * The members of a group and their payloads, kept by one persistent recursive watch on the
 * group node (as Curator 5's GroupMember does with its CuratorCache): a join costs each viewer
 * one read of the new member, a leave costs nothing but the notification, and nothing is
 * re-listed. The group is listed once at start and again after every reconnect, since changes
 * made while disconnected are not replayed.
 *
 * Events, listings and reads overlap. The client delivers replies and watch events in the order
 * the server sent them (its ordering contract), so each is simply applied as it comes: a reply
 * says what the server held when it was processed, and anything that changed later arrives
 * after it.
 */
export class GroupView {
  readonly #client: FrameworkClient;
  readonly #groupPath: string;
  readonly #options: GroupViewOptions;
  readonly #limit: LimitFunction;
  readonly #members = new Map<string, Buffer>();
  /** Reads in flight per member. */
  readonly #reading = new Map<string, number>();
  #watch: PersistentWatch | undefined;
  #addingWatch: Promise<void> | undefined;
  #unsubscribeState: (() => void) | undefined;
  #closed = false;
  /** Aborted by close(): every request of the view stops waiting for a connection or a retry. */
  readonly #closer = new AbortController();

  constructor(client: FrameworkClient, groupPath: string, options: GroupViewOptions) {
    this.#client = client;
    this.#groupPath = groupPath;
    this.#options = options;
    this.#limit = pLimit(options.concurrency);
  }

  /** Member id -> payload as last read. */
  get members(): ReadonlyMap<string, Buffer> {
    return this.#members;
  }

  /** Adds the watch, then lists the group and reads every member. */
  async start(): Promise<void> {
    this.#unsubscribeState = connectionStreamOf(this.#client).onState((state) => {
      if (state === ConnectionState.RECONNECTED) this.#loadInBackground();
    });
    await this.#load();
  }

  /**
   * Stops at once: no more events, reads or listings; requests still out reject. Resolves once
   * the server has removed the watch (when no one else on this client uses it). While the
   * connection is down that waits for it; the caller need not wait for it, since the server's
   * watch goes with its connection and the client does not add it again.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribeState?.();
    this.#limit.clearQueue();
    // A watch still being added is removed by #addWatch once it is there.
    this.#closer.abort(new ClosedError({ path: this.#groupPath, detail: 'GroupMember closed' }));
    await this.#watch?.remove();
  }

  /** The watch first (if a first attempt failed, now), then the listing: no change slips by. */
  async #load(): Promise<void> {
    if (this.#watch === undefined) {
      this.#addingWatch ??= this.#addWatch().finally(() => (this.#addingWatch = undefined));
      await this.#addingWatch;
    }
    if (!this.#closed) await this.#list();
  }

  async #addWatch(): Promise<void> {
    const watch = await this.#client.addWatch(this.#groupPath, (event) => this.#onEvent(event), {
      signal: this.#closer.signal,
    });
    if (this.#closed) await watch.remove();
    else this.#watch = watch;
  }

  #loadInBackground(): void {
    this.#load().catch((error: unknown) => {
      if (!this.#closed) this.#options.onError(error, `loading ${this.#groupPath}`);
    });
  }

  #onEvent(event: WatchedEvent): void {
    if (this.#closed) return;
    const id = this.#memberId(event.path);
    if (id === undefined) return; // the group node itself, or deeper than a member
    // Gone at once, as in Curator's cache. (A member replacing its node in one multi, a
    // restart taking over from its old session, is missing between the two events.)
    if (event.type === 'NODE_DELETED') this.#remove(id);
    else this.#read(id);
  }

  /** Lists the group and reads every member in it; drops members the listing lacks. */
  async #list(): Promise<void> {
    let children: string[];
    try {
      children = await this.#client.getChildren(this.#groupPath, { signal: this.#closer.signal });
    } catch (error) {
      if (!isNoNode(error)) throw error;
      children = [];
    }
    if (this.#closed) return;
    const listed = new Set(children);
    for (const id of [...this.#members.keys()]) {
      if (!listed.has(id)) this.#remove(id);
    }
    for (const id of listed) {
      // A read still out was sent after this listing (an earlier one has answered before it),
      // so it is at least as fresh.
      if (!this.#reading.has(id)) this.#read(id);
    }
  }

  /** Reads a member's payload and applies it. */
  #read(id: string): void {
    const path = joinPath(this.#groupPath, id);
    this.#reading.set(id, (this.#reading.get(id) ?? 0) + 1);
    const settled = (): boolean => {
      const left = (this.#reading.get(id) ?? 1) - 1;
      if (left > 0) this.#reading.set(id, left);
      else this.#reading.delete(id);
      return !this.#closed;
    };
    this.#limit(() => this.#client.getData(path, { signal: this.#closer.signal })).then(
      ({ data }) => {
        if (!settled()) return;
        const known = this.#members.get(id);
        if (known?.equals(data)) return;
        this.#members.set(id, data);
        this.#options.onChange();
      },
      (error: unknown) => {
        if (!settled()) return;
        if (isNoNode(error)) this.#remove(id);
        else this.#options.onError(error, `reading ${path}`);
      },
    );
  }

  #remove(id: string): void {
    if (this.#members.delete(id)) this.#options.onChange();
  }

  #memberId(path: string): string | undefined {
    const prefix = this.#groupPath === '/' ? '/' : `${this.#groupPath}/`;
    if (!path.startsWith(prefix)) return undefined;
    const id = path.slice(prefix.length);
    return id === '' || id.includes('/') ? undefined : id;
  }
}
