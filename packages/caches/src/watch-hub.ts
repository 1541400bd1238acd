import type { FrameworkClient, WatchedEvent, WatchEventType, Watcher } from '@zkrecipes/framework';
import { RearmableWatch, type WatchAttempt } from '@zkrecipes/framework/recipe-support';

/** Which server-side watch: on the node itself (getData, exists) or on its children. */
export type WatchKind = 'node' | 'children';

/** One watch handed to one read; the hub's listeners get it with the watch's event. */
export interface WatchToken {
  /** The recipe-support attempt behind it (its watcher and confirmation). */
  readonly attempt: WatchAttempt;
  /** The type of the event this watch delivered; undefined until it fires. */
  readonly event: WatchEventType | undefined;
  /** For a node watch: the czxid of the incarnation it was set on (0n until the read returns). */
  czxid: bigint;
}

export type WatchListener = (event: WatchedEvent, token: WatchToken) => void;

interface Entry {
  /** Whether the server holds a watch of ours on this path (the one armed bookkeeping). */
  readonly watch: RearmableWatch;
  readonly listeners: Set<WatchListener>;
}

const hubs = new WeakMap<FrameworkClient, WatchHub>();

/**
 * The caches' one-shot watches, shared per client: at most one watcher per path and kind is
 * handed to the wire client, and every cache interested in that path hears its event. Whether
 * that watch is armed is kept by recipe-support's RearmableWatch, one per path and kind, as
 * every other recipe keeps its own.
 *
 * Why: the wire client cannot remove a watch, so a closed cache's watches stay registered
 * until their node changes. Given to the client directly, each would keep its closure (and
 * with it the closed cache) alive, and a new cache on the same path would add another: a
 * service that recreates caches on a long-lived client piles up watchers on quiet paths
 * without bound. Through the hub, a new cache finds the path watched already and adds
 * nothing, and a fired watcher reaches only the caches still subscribed.
 *
 * The server keeps one watch per path and session anyway, so sharing changes nothing there.
 */
export class WatchHub {
  readonly #entries = new Map<string, Entry>();

  static of(client: FrameworkClient): WatchHub {
    let hub = hubs.get(client);
    if (hub === undefined) {
      hub = new WatchHub();
      hubs.set(client, hub);
    }
    return hub;
  }

  /** Hears every event of this path's watch until the returned function is called. */
  subscribe(kind: WatchKind, path: string, listener: WatchListener): () => void {
    const key = `${kind}:${path}`;
    const entry = this.#entry(key);
    entry.listeners.add(listener);
    return () => {
      entry.listeners.delete(listener);
      this.#prune(key, entry);
    };
  }

  /** Whether the server holds a watch of ours on this path (confirmed and not fired). */
  isArmed(kind: WatchKind, path: string): boolean {
    return this.#entries.get(`${kind}:${path}`)?.watch.armed === true;
  }

  /**
   * A watcher for one read, or undefined when one is armed already (read without a watch
   * then). Call {@link confirm} once the read succeeded: only then does the server hold it.
   */
  arm(kind: WatchKind, path: string): { token: WatchToken; watcher: Watcher } | undefined {
    const key = `${kind}:${path}`;
    const entry = this.#entry(key);
    const attempt = entry.watch.next();
    if (attempt === undefined) return undefined;
    const token: WatchToken = {
      attempt,
      czxid: 0n,
      get event() {
        return attempt.event;
      },
    };
    issued.set(attempt, { token, key, entry, standIn: undefined });
    return { token, watcher: attempt.watcher };
  }

  /** The read that carried `token` succeeded: the watch is on the server unless it fired. */
  confirm(token: WatchToken): void {
    const record = issued.get(token.attempt);
    if (record === undefined) return;
    if (this.#entries.get(record.key) === record.entry) {
      token.attempt.confirm();
      return;
    }
    // The entry that issued it was pruned while the read was in flight (its last cache left).
    // The watch is on the server all the same: the path's entry now (made anew if need be) is
    // armed with a stand-in that this watch's event fires, so a cache subscribing now adds no
    // watch. Already armed: that watch fires with this one, which then stays silent.
    if (token.event !== undefined) return;
    const current = this.#entry(record.key);
    const standIn = current.watch.next();
    record.standIn = standIn ?? null;
    if (standIn === undefined) return;
    issued.set(standIn, { token, key: record.key, entry: current, standIn: undefined });
    standIn.confirm();
  }

  #entry(key: string): Entry {
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      const watch = new RearmableWatch((event, _current, attempt) => {
        const record = issued.get(attempt);
        if (record === undefined || record.standIn === null) return;
        if (record.standIn !== undefined) {
          record.standIn.watcher(event);
          return;
        }
        // Looked up now: the entry may have been pruned and made anew since the read.
        const now = this.#entries.get(key);
        if (now === undefined) return;
        for (const listener of [...now.listeners]) listener(event, record.token);
        this.#prune(key, now);
      });
      entry = { watch, listeners: new Set() };
      this.#entries.set(key, entry);
    }
    return entry;
  }

  #prune(key: string, entry: Entry): void {
    if (entry.listeners.size === 0 && !entry.watch.armed && this.#entries.get(key) === entry) {
      this.#entries.delete(key);
    }
  }
}

/** What the hub knows of each attempt it issued; dropped with the attempt. */
interface Issued {
  readonly token: WatchToken;
  readonly key: string;
  /** The entry that issued it. */
  readonly entry: Entry;
  /** Confirmed after its entry was pruned: the current entry's stand-in, or null (silent). */
  standIn: WatchAttempt | null | undefined;
}

const issued = new WeakMap<WatchAttempt, Issued>();
