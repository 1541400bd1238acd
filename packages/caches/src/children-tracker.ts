import pLimit, { type LimitFunction } from 'p-limit';
import {
  ClosedError,
  isWatchBudgetExceeded,
  WatchBudgetExceededError,
  isNoNode,
  type FrameworkClient,
  type Stat,
  type WatchedEvent,
} from '@zkrecipes/framework';
import type { ChildData } from './child-data.js';
import type { ChildEvent } from './path-children-cache-event.js';
import { ReadBatches, type ReadBatch, type ReadBatchOptions } from './read-batches.js';
import { WatchHub, type WatchToken } from './watch-hub.js';

/** What the tracker needs from its owner. */
export interface ChildrenTrackerOptions {
  readonly cacheData: boolean;
  readonly watchData: boolean;
  readonly concurrency: number;
  /** Decompresses a child's data once its read's watch is confirmed; undefined: kept as read. */
  readonly decompress: ((path: string, data: Buffer) => Buffer) | undefined;
  /** Aborted when the owner closes: stops all work. */
  readonly signal: AbortSignal;
  readonly emit: (event: ChildEvent) => void;
  readonly report: (error: unknown, context: string) => void;
  readonly warn: (message: string, meta: Record<string, unknown>) => void;
}

/**
 * The algorithm behind PathChildrenCache (Curator's refresh/getDataAndStat/applyNewData), kept
 * apart from the public class.
 *
 * - One children watch on the parent, re-armed by the listing it triggers; listings are
 *   serialized and coalesced (a change during a listing causes exactly one more).
 * - Each new child is read with getData (never exists: a child deleted meanwhile leaves no watch
 *   behind, CURATOR-107), through p-limit, at most one read per child in flight; the read sets
 *   the child's data watch unless one is already armed (watches go through the client's
 *   WatchHub, so no path collects duplicate watchers, across caches either). A watch that fires
 *   before its read's reply is processed is recognised by its token.
 * - Changes are detected by mzxid, not version (CURATOR-391): a node deleted and re-created with
 *   the same data has version 0 both times but a new mzxid.
 * - Stale replies are recognised by zxids rather than by arrival order: a listing carries the
 *   parent's pzxid, a deletion event the czxid of the incarnation it ended, and a read whose
 *   node is known to be gone at or after its czxid is dropped (a tombstone).
 * - A missing parent is waited for with one exists watch; the cache never writes (Curator
 *   creates the parent), and picks up a re-created parent (CURATOR-388).
 * - Reads are counted per batch (ReadBatches), so INITIALIZED comes when every child of the
 *   first listing has been read or has vanished (CURATOR-476).
 */
export class ChildrenTracker {
  readonly #client: FrameworkClient;
  readonly #path: string;
  readonly #options: ChildrenTrackerOptions;
  readonly #limit: LimitFunction;
  readonly #current = new Map<string, ChildData>();
  /** Children with a read queued or in flight; `again` asks for one more after it. */
  readonly #reads = new Map<string, { again: boolean }>();
  readonly #hub: WatchHub;
  /** Children whose node watch events we listen to (cached or being read). */
  readonly #subscriptions = new Map<string, () => void>();
  readonly #unsubscribeParent: (() => void)[];
  /** Child -> zxid at or after which it is known deleted; only while a read of it is in flight. */
  readonly #tombstones = new Map<string, bigint>();
  /** Children seen deleted by their data watch, for the next listing to settle. */
  readonly #suspects = new Set<string>();
  /** Children whose next application must not emit (rebuild, BUILD_INITIAL_CACHE). */
  readonly #silent = new Set<string>();
  readonly #batches = new ReadBatches();
  #listing = false;
  #listAgain = false;
  #forceReads = false;
  #pendingWatchBytes = 0;
  #budgetWarned = false;

  constructor(client: FrameworkClient, path: string, options: ChildrenTrackerOptions) {
    this.#client = client;
    this.#path = path;
    this.#options = options;
    this.#limit = pLimit(options.concurrency);
    this.#hub = WatchHub.of(client);
    this.#unsubscribeParent = [
      this.#hub.subscribe('children', path, (event) => this.#onParentEvent(event)),
      // While the parent is missing: its exists watch reports the re-creation.
      this.#hub.subscribe('node', path, (event) => this.#onParentEvent(event)),
    ];
  }

  /** The cache's content, by full path. */
  get current(): ReadonlyMap<string, ChildData> {
    return this.#current;
  }

  /**
   * Lists the children again (coalesced with a listing in flight). With `forceReads`, also
   * re-reads every child whose data watch is not armed: after a reconnect those are the only
   * ones that can hold news, since an armed watch is re-registered by the client (SetWatches)
   * and fires for anything missed; after a new session no watch is armed, so all are read.
   */
  refresh(forceReads: boolean): void {
    if (this.#options.signal.aborted) return;
    this.#forceReads ||= forceReads;
    if (this.#listing) {
      this.#listAgain = true;
      return;
    }
    this.#listing = true;
    void this.#listLoop();
  }

  /**
   * Resolves once the next listing and the reads it starts are done. `silent` applies them
   * without events. With `failFast` a failure rejects; otherwise the batch waits for a later
   * listing (after a reconnect).
   */
  load(options: ReadBatchOptions): Promise<void> {
    const loaded = this.#batches.forNextListing(options);
    this.refresh(false);
    return loaded;
  }

  /** Reads one child again without events (Curator's rebuildNode). */
  rebuildNode(fullPath: string): Promise<void> {
    const rebuilt = this.#batches.forChildren([fullPath], { silent: true, failFast: true });
    this.#silent.add(fullPath);
    this.#read(fullPath, true);
    return rebuilt;
  }

  /** Forgets every child without events (Curator's clear). */
  clear(): void {
    this.#current.clear();
  }

  /** Drops a child's cached bytes, keeping its Stat. */
  clearData(fullPath: string, ifVersion: number): boolean {
    const child = this.#current.get(fullPath);
    if (child === undefined) return false;
    if (ifVersion >= 0 && ifVersion !== child.stat.version) return false;
    if (child.data !== undefined) this.#current.set(fullPath, { ...child, data: undefined });
    return true;
  }

  /** Stops everything; waiting batches reject with ClosedError; no watch event reaches us any more. */
  close(): void {
    this.#limit.clearQueue();
    this.#batches.rejectAll(new ClosedError({ path: this.#path, detail: 'the cache is closed' }));
    this.#reads.clear();
    this.#suspects.clear();
    for (const unsubscribe of [...this.#subscriptions.values(), ...this.#unsubscribeParent]) {
      unsubscribe();
    }
    this.#subscriptions.clear();
    this.#tombstones.clear();
  }

  async #listLoop(): Promise<void> {
    try {
      do {
        this.#listAgain = false;
        const force = this.#forceReads;
        this.#forceReads = false;
        const batches = this.#batches.takeWaiting();
        try {
          await this.#listOnce(force, batches);
        } catch (error) {
          if (this.#options.signal.aborted) return;
          this.#batches.listingFailed(batches, error);
          this.#options.report(error, `listing ${this.#path}`);
        }
      } while (this.#listAgain && !this.#options.signal.aborted);
    } finally {
      this.#listing = false;
    }
  }

  async #listOnce(force: boolean, batches: ReadBatch[]): Promise<void> {
    const watch = this.#hub.arm('children', this.#path);
    let children: string[];
    let stat: Stat;
    try {
      ({ children, stat } = await this.#client.getChildren(this.#path, {
        stat: true,
        watch: watch?.watcher,
      }));
    } catch (error) {
      if (!isNoNode(error)) throw error;
      if (!this.#options.signal.aborted) await this.#parentMissing(batches);
      return;
    }
    if (watch !== undefined) this.#hub.confirm(watch.token);
    if (this.#options.signal.aborted) return;
    this.#applyListing(children, stat.pzxid, force, batches);
  }

  #applyListing(names: string[], pzxid: bigint, force: boolean, batches: ReadBatch[]): void {
    const prefix = this.#path === '/' ? '/' : `${this.#path}/`;
    const listed = new Set<string>();
    for (const name of names) listed.add(prefix + name);
    for (const [fullPath, child] of this.#current) {
      // Absent from a listing at pzxid: gone, unless created after it (czxid > pzxid).
      if (!listed.has(fullPath) && child.stat.czxid <= pzxid) this.#remove(fullPath);
    }
    for (const fullPath of this.#reads.keys()) {
      if (!listed.has(fullPath)) this.#tombstone(fullPath, pzxid);
    }
    const waited = batches.length > 0;
    const suspects = [...this.#suspects];
    this.#suspects.clear();
    for (const fullPath of suspects) {
      // Listed again after its deletion: re-created (a new incarnation to read).
      if (listed.has(fullPath)) this.#read(fullPath, true);
    }
    for (const fullPath of listed) {
      const inFlight = this.#reads.has(fullPath);
      const wanted =
        !this.#current.has(fullPath) || (force && !this.#hub.isArmed('node', fullPath)) || waited;
      if (!wanted) continue;
      for (const batch of batches) {
        batch.pending.add(fullPath);
        if (batch.silent) this.#silent.add(fullPath);
      }
      // A read already in flight answers for a new child; a batch or forced read needs one
      // that starts after this listing.
      if (!inFlight || force || waited) this.#read(fullPath, force || waited);
    }
    this.#batches.attach(batches);
  }

  /** The parent is gone: so is every child. Wait for the parent with one exists watch. */
  async #parentMissing(batches: ReadBatch[]): Promise<void> {
    for (const fullPath of [...this.#current.keys()]) this.#remove(fullPath);
    // Nothing to read: whoever waits for this listing is done (an empty INITIALIZED).
    this.#batches.listedNothing(batches.splice(0));
    const watch = this.#hub.arm('node', this.#path);
    if (watch === undefined) return; // watched already: its event comes on the creation
    const stat = await this.#client.exists(this.#path, { watch: watch.watcher });
    this.#hub.confirm(watch.token);
    // Re-created between the two requests: list it now.
    if (stat !== null) this.#listAgain = true;
  }

  /** The parent's children changed, or the parent itself (created, deleted). */
  #onParentEvent(event: WatchedEvent): void {
    // After a new session every child's data watch is gone too: read them all again.
    this.refresh(event.type === 'SESSION_EXPIRED');
  }

  #onDataEvent(fullPath: string, token: WatchToken, event: WatchedEvent): void {
    if (event.type === 'SESSION_EXPIRED') return; // the reconnect listing reads it again
    if (event.type !== 'NODE_DELETED') {
      this.#read(fullPath, true);
      return;
    }
    // Curator removes at once. But a delete may be half of an atomic replacement (a multi that
    // deletes and re-creates, as PersistentNode does for an old session's node): the parent's
    // listing, which this deletion triggers anyway, decides between CHILD_REMOVED and
    // CHILD_UPDATED, so a replaced child never flickers out of the view. If the read that set
    // this watch has not returned yet (czxid unknown), that read drops its reply.
    if (token.czxid !== 0n) this.#tombstone(fullPath, token.czxid);
    this.#suspect(fullPath);
  }

  /** Known deleted at some point: the next listing removes it or (present again) reads it. */
  #suspect(fullPath: string): void {
    this.#suspects.add(fullPath);
    // A child's deletion also fires the parent's children watch, or falls after a listing in
    // flight (whose reply or watch then reflects it): that listing comes anyway, and asking
    // for one more here would double the listings per deletion.
    if (!this.#hub.isArmed('children', this.#path) && !this.#listing) this.refresh(false);
  }

  /** Queues a read; with `again`, one in flight is followed by a fresh one. */
  #read(fullPath: string, again: boolean): void {
    const inFlight = this.#reads.get(fullPath);
    if (inFlight !== undefined) {
      inFlight.again ||= again;
      return;
    }
    const state = { again: false };
    this.#reads.set(fullPath, state);
    if (this.#options.watchData && !this.#subscriptions.has(fullPath)) {
      const unsubscribe = this.#hub.subscribe('node', fullPath, (event, token) =>
        this.#onDataEvent(fullPath, token, event),
      );
      this.#subscriptions.set(fullPath, unsubscribe);
    }
    void this.#limit(async () => {
      try {
        do {
          state.again = false;
          await this.#readOnce(fullPath);
        } while (state.again && !this.#options.signal.aborted);
      } finally {
        if (this.#reads.get(fullPath) === state) this.#reads.delete(fullPath);
        this.#tombstones.delete(fullPath);
        this.#release(fullPath);
      }
    });
  }

  async #readOnce(fullPath: string): Promise<void> {
    const { signal } = this.#options;
    let watchData = this.#options.watchData && this.#dataWatchFits(fullPath);
    for (;;) {
      const watch = watchData ? this.#hub.arm('node', fullPath) : undefined;
      const pendingBytes = watch === undefined ? 0 : 4 + Buffer.byteLength(fullPath);
      this.#pendingWatchBytes += pendingBytes;
      try {
        const { data, stat } = await this.#client
          .getData(fullPath, { watch: watch?.watcher, compressed: false })
          .finally(() => {
            this.#pendingWatchBytes -= pendingBytes;
          });
        if (watch !== undefined) {
          watch.token.czxid = stat.czxid;
          this.#hub.confirm(watch.token);
          // Deleted right after this read, and the event overtook this reply: stale.
          if (watch.token.event === 'NODE_DELETED') this.#tombstone(fullPath, stat.czxid);
        }
        if (signal.aborted) return;
        const { decompress } = this.#options;
        this.#applyData(
          fullPath,
          stat,
          decompress === undefined ? data : decompress(fullPath, data),
        );
        return;
      } catch (error) {
        if (signal.aborted) return;
        if (isNoNode(error)) {
          this.#applyMissing(fullPath);
          return;
        }
        if (watch !== undefined && isWatchBudgetExceeded(error)) {
          this.#warnBudget(fullPath, error);
          watchData = false;
          continue;
        }
        this.#readFailed(fullPath, error);
        return;
      }
    }
  }

  /**
   * Data watches stop at 90% of the client's watch budget: the rest stays free for the watch
   * the cache cannot do without, its parent's children watch, which is re-armed on every change.
   */
  #dataWatchFits(fullPath: string): boolean {
    // Reads of ours not yet at the wire have not reserved their watch in the client yet.
    const { budgetBytes, usedBytes } = this.#client.watchBudget;
    const needed = usedBytes + this.#pendingWatchBytes + 4 + Buffer.byteLength(fullPath);
    if (needed <= budgetBytes * 0.9) return true;
    this.#warnBudget(
      fullPath,
      new WatchBudgetExceededError('data watches stopped at 90% of the watch budget'),
    );
    return false;
  }

  #applyData(fullPath: string, stat: Stat, data: Buffer): void {
    const tombstone = this.#tombstones.get(fullPath);
    const previous = this.#current.get(fullPath);
    if (tombstone !== undefined && stat.czxid <= tombstone) {
      // This incarnation is known deleted; the reply is older than that news.
      this.#suspect(fullPath);
      this.#settle(fullPath);
      return;
    }
    // Same mzxid: nothing changed, except that a silent re-read (rebuild) refreshes the copy.
    const silent = this.#silent.has(fullPath);
    if (
      previous !== undefined &&
      (stat.mzxid < previous.stat.mzxid || (stat.mzxid === previous.stat.mzxid && !silent))
    ) {
      this.#settle(fullPath);
      return;
    }
    const child: ChildData = {
      path: fullPath,
      stat,
      data: this.#options.cacheData ? data : undefined,
    };
    this.#current.set(fullPath, child);
    if (!silent) {
      this.#options.emit({ type: previous ? 'CHILD_UPDATED' : 'CHILD_ADDED', data: child });
    }
    this.#settle(fullPath);
  }

  #applyMissing(fullPath: string): void {
    if (this.#current.has(fullPath)) this.#remove(fullPath);
    else this.#settle(fullPath);
  }

  #remove(fullPath: string): void {
    const previous = this.#current.get(fullPath);
    if (previous !== undefined) {
      this.#current.delete(fullPath);
      if (!this.#silent.has(fullPath))
        this.#options.emit({ type: 'CHILD_REMOVED', data: previous });
    }
    this.#settle(fullPath);
    this.#release(fullPath);
  }

  /** Stop listening to a child that is neither cached nor being read. */
  #release(fullPath: string): void {
    if (this.#current.has(fullPath) || this.#reads.has(fullPath)) return;
    this.#subscriptions.get(fullPath)?.();
    this.#subscriptions.delete(fullPath);
  }

  #tombstone(fullPath: string, zxid: bigint): void {
    if (!this.#reads.has(fullPath)) return;
    const known = this.#tombstones.get(fullPath);
    if (known === undefined || zxid > known) this.#tombstones.set(fullPath, zxid);
  }

  /** The child's outcome is known (read, or gone): batches waiting for it may be done. */
  #settle(fullPath: string): void {
    this.#silent.delete(fullPath);
    this.#batches.settle(fullPath);
  }

  #readFailed(fullPath: string, error: unknown): void {
    // The child stays unread (and unwatched): the reconnect listing reads it again.
    this.#batches.readFailed(fullPath, error);
    this.#options.report(error, `read ${fullPath}`);
  }

  #warnBudget(fullPath: string, error: unknown): void {
    if (this.#budgetWarned) return;
    this.#budgetWarned = true;
    this.#options.warn(
      'watch budget exhausted: children read from now on are not watched; their changes show ' +
        'only after a reconnect or refresh',
      { child: fullPath, error },
    );
  }
}
