import type { NzcWatcherEvent } from './nzc-types.js';
import { watchEventTypeOf } from './nzc-adapter.js';
import type { PersistentWatchMode, WatchedEvent } from './zookeeper-types.js';

/** Receives every event of a persistent watch (server paths; the client maps them). */
export type PersistentWatchListener = (event: WatchedEvent) => void;

interface Entry {
  readonly path: string;
  readonly mode: PersistentWatchMode;
  readonly listeners: Set<PersistentWatchListener>;
}

/**
 * The persistent watches this client wants, whatever connection or session is current. The
 * server keeps watches per connection, so the connection re-adds every entry after each
 * reconnect (changes made while disconnected are not replayed: users re-read on RECONNECTED).
 * Several listeners may share one server watch; the server watch is removed with the last.
 */
export class PersistentWatchRegistry {
  readonly #entries = new Map<string, Entry>();
  readonly #onListenerError: (error: unknown, path: string) => void;

  constructor(onListenerError: (error: unknown, path: string) => void) {
    this.#onListenerError = onListenerError;
  }

  /** True when no persistent watch is registered: a notification then concerns none. */
  get isEmpty(): boolean {
    return this.#entries.size === 0;
  }

  /** Every (path, mode) that must be on the server. */
  get watches(): { path: string; mode: PersistentWatchMode }[] {
    return [...this.#entries.values()].map(({ path, mode }) => ({ path, mode }));
  }

  /**
   * Adds `listener`; returns the function that removes it, which answers whether the server
   * watch on `path` is now unused (no listener of either mode left on that path).
   */
  add(path: string, mode: PersistentWatchMode, listener: PersistentWatchListener): () => boolean {
    const key = `${mode}:${path}`;
    let entry = this.#entries.get(key);
    if (!entry) {
      entry = { path, mode, listeners: new Set() };
      this.#entries.set(key, entry);
    }
    entry.listeners.add(listener);
    let removed = false;
    return () => {
      if (removed) return false;
      removed = true;
      const current = this.#entries.get(key);
      if (!current?.listeners.delete(listener) || current.listeners.size > 0) return false;
      this.#entries.delete(key);
      return !this.#entries.has(`${otherMode(mode)}:${path}`);
    };
  }

  /**
   * Hands a notification to every persistent watch it belongs to (the connection calls it
   * through EventDelivery, in wire order). Never throws.
   */
  dispatch(event: NzcWatcherEvent): void {
    if (this.#entries.size === 0) return;
    const type = watchEventTypeOf(event.type);
    if (type === undefined) return;
    for (const entry of this.#entries.values()) {
      if (!covers(entry, event.path, type)) continue;
      for (const listener of [...entry.listeners]) {
        try {
          listener({ type, path: event.path });
        } catch (error) {
          this.#onListenerError(error, entry.path);
        }
      }
    }
  }
}

function otherMode(mode: PersistentWatchMode): PersistentWatchMode {
  return mode === 'PERSISTENT' ? 'PERSISTENT_RECURSIVE' : 'PERSISTENT';
}

/**
 * Whether the server sent `eventPath`/`type` for this watch. One notification per change is
 * sent per connection, whichever watches caused it, so a one-shot watch elsewhere can bring
 * events this watch must not see (a children-changed on a recursively watched node).
 */
function covers(entry: Entry, eventPath: string, type: string): boolean {
  if (entry.mode === 'PERSISTENT') return eventPath === entry.path;
  if (type === 'NODE_CHILDREN_CHANGED') return false;
  if (eventPath === entry.path) return true;
  const prefix = entry.path === '/' ? '/' : `${entry.path}/`;
  return eventPath.startsWith(prefix);
}
