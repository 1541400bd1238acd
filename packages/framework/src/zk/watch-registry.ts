import { WatchBudgetExceededError } from '../errors/zookeeper-error-classes.js';
import type { NzcEvent, NzcWatcher } from './nzc-types.js';
import { watchEventTypeOf } from './nzc-adapter.js';
import type { WatchedEvent, Watcher } from './zookeeper-types.js';

/** Data/exists watches and child watches travel in separate lists of SetWatches. */
export type WatchKind = 'data' | 'child';

interface WatchEntry {
  refs: number;
  readonly bytes: number;
  readonly pending: Set<() => void>;
}

/** Bytes one path costs inside SetWatches: a length prefix and the UTF-8 path. */
function costOf(path: string): number {
  return 4 + Buffer.byteLength(path);
}

/**
 * Keeps the one-shot watches the server holds for this client, for two reasons:
 * - a budget: nzc re-sends every watched path in one SetWatches packet on reconnect and never
 *   splits it; past the server's jute.maxbuffer the server drops the connection, nzc reconnects
 *   and re-sends, forever. New watches beyond the budget fail before anything is sent.
 * - on a new session every outstanding watch is dead; its watcher gets SESSION_EXPIRED (as the
 *   Java client delivers None/Expired) so whoever waits on it can re-read.
 * Watchers run inside nzc's socket handler: a throw there would kill the process, so every call
 * is isolated and routed to `onWatcherError`.
 */
export class WatchRegistry {
  readonly #entries = new Map<string, WatchEntry>();
  readonly #budgetBytes: number;
  readonly #onWatcherError: (error: unknown, path: string) => void;
  #usedBytes = 0;
  #reservedBytes = 0;

  constructor(budgetBytes: number, onWatcherError: (error: unknown, path: string) => void) {
    this.#budgetBytes = budgetBytes;
    this.#onWatcherError = onWatcherError;
  }

  /** Bytes of watched paths, including watches whose request is still in flight. */
  get usedBytes(): number {
    return this.#usedBytes + this.#reservedBytes;
  }

  /**
   * Fails when a watch on a path not yet watched would exceed the budget. Watches still in
   * flight count too (reserved by `wrap`), so a burst of watched reads cannot overshoot.
   */
  checkBudget(kind: WatchKind, path: string): void {
    if (this.#entries.has(`${kind}:${path}`)) return;
    const needed = this.#usedBytes + this.#reservedBytes + costOf(path);
    if (needed > this.#budgetBytes) {
      throw new WatchBudgetExceededError(
        `watch budget exceeded: watching ${path} would need ${needed} bytes of watched paths, ` +
          `over the budget of ${this.#budgetBytes} (watchBudgetBytes); a reconnect must re-send ` +
          `every watched path in one packet under the server's jute.maxbuffer. Watch fewer ` +
          `paths (a parent's children instead of each child).`,
        { path },
      );
    }
  }

  /**
   * Wraps `watcher` for nzc. `reportPath` is the path the user sees (namespace removed). The
   * entry is counted from `register()` on (after the server accepted the watch).
   */
  wrap(
    kind: WatchKind,
    path: string,
    reportPath: string,
    watcher: Watcher,
  ): {
    nzcWatcher: NzcWatcher;
    register: () => void;
    cancel: () => void;
  } {
    const key = `${kind}:${path}`;
    let registered = false;
    let done = false;
    let reserved = this.#entries.has(key) ? 0 : costOf(path);
    this.#reservedBytes += reserved;
    const unreserve = (): void => {
      this.#reservedBytes -= reserved;
      reserved = 0;
    };
    const fire = (event: WatchedEvent): void => {
      if (done) return;
      done = true;
      if (registered) this.#release(key, expire);
      try {
        watcher(event);
      } catch (error) {
        this.#onWatcherError(error, reportPath);
      }
    };
    const expire = (): void => fire({ type: 'SESSION_EXPIRED', path: reportPath });
    const nzcWatcher = (event: NzcEvent): void => {
      const type = watchEventTypeOf(event.type);
      if (type) fire({ type, path: reportPath });
    };
    const register = (): void => {
      unreserve();
      if (registered || done) return;
      registered = true;
      let entry = this.#entries.get(key);
      if (!entry) {
        entry = { refs: 0, bytes: costOf(path), pending: new Set() };
        this.#entries.set(key, entry);
        this.#usedBytes += entry.bytes;
      }
      entry.refs += 1;
      entry.pending.add(expire);
    };
    return { nzcWatcher, register, cancel: unreserve };
  }

  /** The session is gone: every outstanding watch is told, and the budget starts over. */
  expireAll(): void {
    const expires = [...this.#entries.values()].flatMap((entry) => [...entry.pending]);
    this.#entries.clear();
    this.#usedBytes = 0;
    for (const expire of expires) expire();
  }

  #release(key: string, expire: () => void): void {
    const entry = this.#entries.get(key);
    if (!entry || !entry.pending.delete(expire)) return;
    entry.refs -= 1;
    if (entry.refs === 0) {
      this.#entries.delete(key);
      this.#usedBytes -= entry.bytes;
    }
  }
}
