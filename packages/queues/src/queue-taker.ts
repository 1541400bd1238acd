// Taking items off a queue without re-listing it per item. Curator lists (and sorts) the whole
// queue for every take, which is quadratic in the backlog. Here one listing is kept, sorted, and
// walked from the front; the queue is listed again when that list runs low (plain mode: in the
// background, before it runs dry, so a consumer with a backlog never stops to list), when it
// runs dry, or when an attempt misses (someone else took the item) after the children watch
// reported a change. New items always sort after the listed ones (sequence numbers only grow),
// so walking an old list first keeps FIFO order.
//
// The data of the next few items is read ahead, in the background and bounded. Taking an item
// is then one round trip: a versioned delete (plain mode), or the lock multi (safe mode). The
// read and the claim need no ordering between them: the version in the claim proves the data
// read is the data claimed. The claim is sent before the next read-ahead, so its reply (the one
// the caller waits for) is not queued behind a read on the server.
//
// Priority and delay queues (an `order` whose new items may sort first) walk a listing only
// until the queue has changed and `minItemsBeforeRefresh` items of it were taken, then list
// again; a delay queue never takes an item before it is due: with the first item not due, a
// take waits for its time or a change (one timer, ended by the take's limits and by close).
//
// A take ends on time in every connection state: what it waits for (a listing, a read shared
// with other takes, a claim) is raced against its limits and the taker's close, and left
// running for others when it gives up. Claims follow item-claims.ts: an item won after its take
// gave up goes to the next take (late-items.ts), a lock won so is handed back.
import {
  ClosedError,
  type FrameworkClient,
  isBadVersion,
  isNoNode,
  joinPath,
  type Logger,
} from '@zkrecipes/framework';
import {
  type CallLimits,
  RearmableWatch,
  TIMED_OUT,
  connectionStreamOf,
  waitForWake,
  Wake,
} from '@zkrecipes/framework/recipe-support';
import { Closing } from './closing.js';
import { type ClaimResult, ItemClaims } from './item-claims.js';
import type { ItemOrder } from './item-order.js';
import { ItemReads } from './item-reads.js';
import { LateItems } from './late-items.js';
import type { Lease, LockOutcome, LockSafety } from './lock-safety.js';
import { sortItems } from './queue-node-names.js';

/** An item taken off the queue. */
export interface TakenItem {
  /** The item's node name, e.g. `queue-0000000042`. */
  readonly name: string;
  /** The item's node path. */
  readonly path: string;
  /** The node's data. */
  readonly data: Buffer;
  /** Safe mode: the lock held on the item; the item is still in the queue until it ends. */
  readonly lease: Lease | undefined;
}

/** Options of {@link QueueTaker}. */
export interface QueueTakerOptions {
  readonly client: FrameworkClient;
  readonly queuePath: string;
  /** Item names start with this (`queue-` or `qn-`); other children are foreign. */
  readonly prefix: string;
  /**
   * How items are sorted, delayed and requeued (priority, delay and id queues). Default: by the
   * sequence after `prefix`, new items last.
   */
  readonly order?: ItemOrder | undefined;
  /**
   * With an order whose new items may sort first: how many items of a listing are taken before
   * a change makes the queue be listed again (Curator's `minItemsBeforeRefresh`). Default: 0.
   */
  readonly minItemsBeforeRefresh?: number | undefined;
  /** Safe mode; undefined takes items by deleting them. */
  readonly safety: LockSafety | undefined;
  /** How many items' data to read ahead, at least 1. */
  readonly prefetch: number;
  readonly logger: Logger;
}

/** Options of {@link QueueTaker.take}. */
export interface TakeOptions {
  /** Wait for an item when the queue is empty (else resolve undefined). */
  readonly wait: boolean;
  /**
   * The call's timeout and signal: when the time runs out it resolves undefined, when the
   * caller aborts it rejects with the reason. Undefined: neither (it waits for an item, or for
   * the connection, until one comes or the taker closes).
   */
  readonly limits?: CallLimits | undefined;
}

/** The longest a delay queue waits for an item's time before it looks again. */
const MAX_DUE_WAIT_MS = 24 * 60 * 60 * 1000;

export class QueueTaker {
  readonly #options: QueueTakerOptions;
  /** Items in taking order, from the last listing; `#cursor` is the next one to try. */
  #candidates: string[] = [];
  #cursor = 0;
  /** Items this taker holds (being claimed, or leased in safe mode). */
  readonly #claimed = new Set<string>();
  /** Safe mode: items locked by other consumers, with the watch on their lock. */
  readonly #busy = new Map<string, Wake>();
  /** Data read ahead, by item name. */
  readonly #data: ItemReads;
  readonly #waiters = new Set<() => void>();
  readonly #warnedForeign = new Set<string>();
  readonly #closed = new Closing();
  readonly #claims: ItemClaims;
  /** Plain mode: items won by a claim after its take gave up; the next takes get them first. */
  readonly #late: LateItems;
  /** `<queuePath>/`: item paths are this plus the name. */
  readonly #itemPrefix: string;
  #listing: Promise<void> | undefined;
  /**
   * Plain mode: items this taker deleted since the last listing was sent. That listing may
   * still name them (the server answered it before the delete), so it must not put them back.
   */
  readonly #deletedSinceListing = new Set<string>();
  /** Items in the last listing (see #listAhead). */
  #listedItems = 0;
  /** The children watch fired (or was never set) since the last listing. */
  #changed = true;
  /** The children watch; each firing is a change to list. */
  readonly #childrenWatch = new RearmableWatch(() => this.#onChange());
  #lastCount = 0;
  /** Items taken since the last listing (see `minItemsBeforeRefresh`). */
  #takenSinceListing = 0;

  constructor(options: QueueTakerOptions) {
    this.#options = options;
    this.#itemPrefix = `${joinPath(options.queuePath, '')}/`;
    // The item being taken and the `prefetch` after it: all of them can be read in one go.
    this.#data = new ItemReads(options.client, this.#itemPrefix, options.prefetch + 1);
    this.#claims = new ItemClaims(options.client, options.queuePath);
    this.#late = new LateItems(options.logger);
  }

  /** How many children the queue had at the last listing (Curator's getLastMessageCount). */
  get lastCount(): number {
    return this.#lastCount;
  }

  /**
   * Takes the next item: in plain mode it is deleted and ours; in safe mode it is locked and
   * the caller must end the lease. Resolves undefined when `wait` is false and the queue is
   * empty, or when the call's time runs out.
   */
  async take(options: TakeOptions): Promise<TakenItem | undefined> {
    const { wait, limits } = options;
    try {
      for (;;) {
        this.#throwIfClosed();
        limits?.throwIfAborted();
        const late = this.#late.next();
        if (late !== undefined) return late;
        if (this.#staleOrder()) this.#dropCandidates();
        const dueInMs = this.#firstDueInMs();
        if (dueInMs > 0) {
          // Delay queue: the first item (the earliest due) is not due yet. A change may bring
          // an earlier one: list again; otherwise wait for its time or a change.
          if (this.#changed) {
            this.#dropCandidates();
          } else if (!wait || !(await this.#waitForChange(limits, dueInMs))) {
            return undefined;
          }
          continue;
        }
        const name = this.#nextCandidate();
        if (name === undefined) {
          // A take that would wait anyway need not list a queue that has not changed since the
          // last listing (its watch is armed and has not fired): it waits for the watch.
          if (!wait || this.#listing !== undefined || this.#changed || !this.#childrenWatch.armed) {
            await this.#within(this.#relist(), limits);
          }
          if (this.#hasCandidate()) continue;
          if (!wait || !(await this.#waitForChange(limits))) return undefined;
          continue;
        }
        const taken = await this.#attempt(name, limits);
        if (taken !== undefined) {
          this.#takenSinceListing += 1;
          return taken;
        }
      }
    } catch (error) {
      if (limits?.ranOut(error) === true) return undefined;
      throw error;
    }
  }

  /** The data of the first item without taking it; undefined when the queue is empty. */
  async peek(
    limits: CallLimits | undefined,
  ): Promise<{ readonly name: string; readonly data: Buffer } | undefined> {
    for (let listed = false; ;) {
      this.#throwIfClosed();
      limits?.throwIfAborted();
      const late = this.#late.first();
      if (late !== undefined) return late;
      const name = this.#firstAvailable();
      if (name === undefined) {
        if (listed) return undefined;
        await this.#closed.until(this.#relist(), limits);
        listed = true;
        continue;
      }
      const item = await this.#closed.until(this.#data.dataOf(name), limits);
      if (item !== undefined) return { name, data: item.data };
      this.#dropCandidate(name);
    }
  }

  /** Puts back an item whose lease was released unprocessed, so it is taken again. */
  restore(name: string): void {
    this.#claimed.delete(name);
    if (this.#closed.closed) return;
    this.#candidates.splice(this.#cursor, 0, name);
    this.#wakeAll();
  }

  /** Forgets an item this taker finished with (deleted, requeued or lost). */
  finished(name: string): void {
    this.#claimed.delete(name);
    this.#data.forget(name);
  }

  /**
   * Stops: pending takes reject with ClosedError, watches are silenced. A take whose claim is
   * in flight gets its answer while the connection is up (and with it the item); a plain-mode
   * item won after its take gave up, and not taken since, is reported lost.
   */
  close(): void {
    if (this.#closed.closed) return;
    this.#closed.close(
      new ClosedError({ path: this.#options.queuePath, detail: 'the queue is closed' }),
    );
    this.#claims.close();
    for (const wake of this.#busy.values()) wake.cancel();
    this.#busy.clear();
    this.#data.clear();
    this.#wakeAll();
    this.#late.close();
  }

  /**
   * Whether the listing may be out of order: the order lets new items sort first, the queue
   * changed since it was listed, and `minItemsBeforeRefresh` items of it have been taken.
   */
  #staleOrder(): boolean {
    const { order, minItemsBeforeRefresh = 0 } = this.#options;
    return (
      order !== undefined &&
      !order.newItemsLast &&
      this.#changed &&
      this.#cursor < this.#candidates.length &&
      this.#takenSinceListing >= minItemsBeforeRefresh
    );
  }

  #dropCandidates(): void {
    this.#candidates = [];
    this.#cursor = 0;
  }

  /** Delay queue: milliseconds until the first available item is due; 0 when it is (or none). */
  #firstDueInMs(): number {
    const dueInMs = this.#options.order?.dueInMs;
    if (dueInMs === undefined) return 0;
    const name = this.#firstAvailable();
    return name === undefined ? 0 : Math.max(0, Math.ceil(dueInMs(name, Date.now())));
  }

  #throwIfClosed(): void {
    this.#closed.throwIfClosed();
  }

  /** Waits for shared work (a listing, a read) until the call gives up or the taker closes. */
  #within<T>(work: Promise<T>, limits: CallLimits | undefined): Promise<T> {
    return this.#closed.until(work, limits);
  }

  #hasCandidate(): boolean {
    return this.#firstAvailable() !== undefined;
  }

  #firstAvailable(): string | undefined {
    for (let i = this.#cursor; i < this.#candidates.length; i += 1) {
      const name = this.#candidates[i]!;
      if (!this.#claimed.has(name) && !this.#busy.has(name)) return name;
    }
    return undefined;
  }

  #nextCandidate(): string | undefined {
    while (this.#cursor < this.#candidates.length) {
      const name = this.#candidates[this.#cursor]!;
      this.#cursor += 1;
      if (this.#claimed.has(name) || this.#busy.has(name)) continue;
      return name;
    }
    return undefined;
  }

  async #attempt(name: string, limits: CallLimits | undefined): Promise<TakenItem | undefined> {
    const { client, safety } = this.#options;
    const path = this.#itemPrefix + name;
    this.#claimed.add(name);
    // Not read yet (the first item after a listing): read it together with the next ones.
    if (!this.#data.has(name)) this.#readAhead(true);
    // The item stays claimed while it is ours, or while a claim its take gave up on is out.
    let keep = false;
    try {
      for (let reads = 0; reads < 3; reads += 1) {
        // Read ahead, the data is usually there already: no wait, nothing to race.
        const read = this.#data.of(name);
        const item = this.#data.itemOf(
          name,
          read.settled ?? (await this.#within(read.promise, limits)),
        );
        if (item === undefined) break;
        if (this.#late.waiting) {
          // An older item was won meanwhile (its take had given up): it goes first.
          this.#candidates.splice(this.#cursor, 0, name);
          return undefined;
        }
        if (safety !== undefined) {
          const wake = new Wake();
          const locking = this.#claims.track(safety.lock(name, item.version, wake));
          this.#readAhead();
          const result = await this.#claims.wait(locking, limits).catch((error: unknown) => {
            keep = true;
            void locking.then((late) => this.#lateLock(name, wake, late));
            throw error;
          });
          if (!result.ok) throw result.error;
          const outcome = result.value;
          if (outcome.kind === 'locked') {
            keep = true;
            return { name, path, data: item.data, lease: outcome.lease };
          }
          if (outcome.kind === 'busy') {
            this.#watchBusy(name, wake);
            return undefined;
          }
          if (outcome.kind === 'gone') break;
        } else {
          const deleting = this.#claims.track(
            // idempotent: a claim whose reply was lost is known to be ours, never taken for
            // another consumer's (which would lose the item).
            client.delete(path, {
              version: item.version,
              signal: this.#claims.signalFor(),
              idempotent: true,
            }),
          );
          this.#readAhead();
          this.#listAhead();
          const result = await this.#claims.wait(deleting, limits).catch((error: unknown) => {
            keep = true;
            void deleting.then((late) => this.#lateDelete(name, path, item.data, late));
            throw error;
          });
          if (result.ok) {
            this.#deleted(name);
            const taken = { name, path, data: item.data, lease: undefined };
            // An older item was won meanwhile by a claim whose take had given up: it goes
            // first, and this one to the next take.
            const late = this.#late.next();
            if (late === undefined) return taken;
            this.#late.add(taken);
            return late;
          }
          if (isNoNode(result.error)) break;
          if (!isBadVersion(result.error)) throw result.error;
        }
        // The data changed after we read it (someone wrote to the item): read it again.
        this.#data.forget(name);
      }
      this.#gone(name);
      return undefined;
    } finally {
      if (!keep) this.#claimed.delete(name);
    }
  }

  /** Plain mode: our delete of the item went through. */
  #deleted(name: string): void {
    this.#data.forget(name);
    if (this.#listing !== undefined) this.#deletedSinceListing.add(name);
  }

  /** Plain mode: the answer to a delete whose take gave up. The item, if won, is the next one. */
  #lateDelete(name: string, path: string, data: Buffer, result: ClaimResult<void>): void {
    if (!result.ok) {
      this.restore(name);
      return;
    }
    this.#deleted(name);
    this.#claimed.delete(name);
    this.#late.add({ name, path, data, lease: undefined });
    this.#wakeAll();
  }

  /**
   * Safe mode: the answer to a lock whose take gave up. A lock won is handed straight back (the
   * item is still queued), so it never holds up other consumers while no take of ours comes.
   */
  #lateLock(name: string, wake: Wake, result: ClaimResult<LockOutcome>): void {
    wake.cancel();
    const safety = this.#options.safety;
    if (!result.ok || result.value.kind !== 'locked' || safety === undefined) {
      this.restore(name);
      return;
    }
    // finish() never rejects into nothing: its failures go to its outcome or the log.
    safety.finish(result.value.lease, { kind: 'release' }).then(
      () => this.restore(name),
      () => this.finished(name),
    );
  }

  /** Someone else took the item. If the queue changed since our listing, list it again. */
  #gone(name: string): void {
    this.#data.forget(name);
    if (this.#changed) {
      this.#candidates = [];
      this.#cursor = 0;
    }
  }

  #dropCandidate(name: string): void {
    this.#data.forget(name);
    const index = this.#candidates.indexOf(name, this.#cursor);
    if (index >= 0) this.#candidates.splice(index, 1);
  }

  /** Safe mode: another consumer holds the item; `wake` watches its lock, to try it again. */
  #watchBusy(name: string, wake: Wake): void {
    const previous = this.#busy.get(name);
    previous?.cancel();
    this.#busy.set(name, wake);
    void wake.event.then(() => {
      if (this.#busy.get(name) !== wake) return;
      this.#busy.delete(name);
      this.restore(name);
    });
  }

  async #relist(): Promise<void> {
    this.#listing ??= this.#list().finally(() => (this.#listing = undefined));
    return this.#listing;
  }

  async #list(): Promise<void> {
    const { client, queuePath } = this.#options;
    for (;;) {
      this.#throwIfClosed();
      const watch = this.#childrenWatch.next();
      this.#changed = false;
      this.#deletedSinceListing.clear();
      try {
        const children = await client.getChildren(queuePath, {
          watch: watch?.watcher,
          signal: this.#closed.signal,
        });
        // Armed now: its event, if any, is delivered after this continuation (the client's
        // ordering contract), so it finds the watch armed and clears it.
        watch?.confirm();
        this.#absorb(children);
        return;
      } catch (error) {
        if (!isNoNode(error)) throw error;
      }
      // The queue node itself is gone (removed by hand): nothing to take until it is back.
      const stat = await client.exists(queuePath, {
        watch: () => {
          this.#childrenWatch.disarm();
          this.#onChange();
        },
        signal: this.#closed.signal,
      });
      if (stat === null) {
        this.#absorb([]);
        return;
      }
    }
  }

  #onChange(): void {
    this.#changed = true;
    this.#wakeAll();
  }

  #absorb(children: readonly string[]): void {
    const { prefix, order, queuePath, logger } = this.#options;
    const { items, foreign } = order?.sort(children) ?? sortItems(children, prefix);
    this.#takenSinceListing = 0;
    for (const name of foreign) {
      if (this.#warnedForeign.has(name)) continue;
      this.#warnedForeign.add(name);
      logger.warn('foreign node in queue path, ignored', { path: joinPath(queuePath, name) });
    }
    this.#lastCount = children.length;
    this.#listedItems = items.length;
    const taken = this.#deletedSinceListing;
    this.#candidates = items.filter(
      (name) => !this.#claimed.has(name) && !this.#busy.has(name) && !taken.has(name),
    );
    this.#cursor = 0;
    const present = new Set(items);
    this.#data.keepOnly(present);
    this.#wakeAll();
  }

  /**
   * Waits for a change (or, given `dueInMs`, for an item's time to come, whichever is first);
   * false when the call's time runs out first.
   */
  async #waitForChange(limits: CallLimits | undefined, dueInMs?: number): Promise<boolean> {
    // close() wakes the waiters it sees; one that registers after it must not wait at all.
    this.#throwIfClosed();
    if (this.#changed) return true;
    let wake: () => void = () => undefined;
    const changed = new Promise<void>((resolve) => (wake = resolve));
    this.#waiters.add(wake);
    // A timer is capped (setTimeout's limit is about 24.8 days): at the cap it looks again.
    const dueAt =
      dueInMs === undefined ? undefined : performance.now() + Math.min(dueInMs, MAX_DUE_WAIT_MS);
    const callAt = limits?.atMs;
    const callFirst = callAt !== undefined && (dueAt === undefined || callAt <= dueAt);
    try {
      const woken = await waitForWake(changed, {
        deadline: callFirst ? callAt : dueAt,
        signal: limits?.callerSignal,
        closed: connectionStreamOf(this.#options.client).closedSignal,
        path: this.#options.queuePath,
      });
      return woken !== TIMED_OUT || !callFirst;
    } finally {
      this.#waiters.delete(wake);
    }
  }

  #wakeAll(): void {
    for (const wake of this.#waiters) wake();
    this.#waiters.clear();
  }

  /**
   * Starts reading the data of the item being taken and the next `prefetch` candidates. Unless
   * `now`, only once half of them are unread (or the rest of the list is): reads sent together
   * cost the server and us much less per read than one at a time (in one packet: about a third
   * of the server's CPU time per read, and half of ours).
   */
  #readAhead(now = false): void {
    const { prefetch } = this.#options;
    const start = Math.max(0, this.#cursor - 1);
    const end = Math.min(this.#candidates.length, this.#cursor + prefetch);
    let unread = 0;
    for (let i = start; i < end; i += 1) {
      const name = this.#candidates[i]!;
      if (!this.#data.has(name) && !this.#busy.has(name)) unread += 1;
    }
    if (unread === 0) return;
    if (!now && unread < Math.ceil(prefetch / 2) && end < this.#candidates.length) return;
    for (let i = start; i < end; i += 1) {
      const name = this.#candidates[i]!;
      // Never rejects (errors are settled values), so nothing is left unhandled.
      if (!this.#data.has(name) && !this.#busy.has(name)) this.#data.of(name);
    }
  }

  /**
   * Plain mode, right after a delete is sent, when the queue changed since the last listing:
   * lists it again in the background before the list runs dry. After a listing of a backlog
   * (at least twice `prefetch` items) that is when `prefetch` items are left, so the new
   * listing arrives while they are taken and reading ahead runs on into the new items: a
   * consumer that is behind never stops to list. Otherwise it is with the delete of the last
   * listed item: the next take finds the listing on its way instead of sending it. Listing
   * earlier than that on short lists would list for every item or two while the consumer keeps
   * up (each listing costs the server about as much as a read).
   */
  #listAhead(): void {
    const { prefetch } = this.#options;
    const left = this.#candidates.length - this.#cursor;
    if (
      this.#changed &&
      this.#listing === undefined &&
      left <= (this.#listedItems >= 2 * prefetch ? prefetch : 0) &&
      !this.#closed.closed
    ) {
      // A failure here is met again by the take that finds the list dry and lists itself.
      this.#relist().catch(() => undefined);
    }
  }
}
