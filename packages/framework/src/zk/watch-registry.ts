import { Buffer } from 'node:buffer';
import { WatchBudgetExceededError } from '../errors/zookeeper-error-classes.js';
import type { NzcEvent, NzcWatcher } from './nzc-types.js';
import { watchEventTypeOf } from './nzc-adapter.js';
import type { WatchedEvent, Watcher } from './zookeeper-types.js';
import { onAbort } from '../async/on-abort.js';

/** How much of the client's watch budget is in use (see `watchBudgetBytes`). */
export interface WatchBudget {
  /** The budget: bytes of watched paths a reconnect may have to re-send in one packet. */
  readonly budgetBytes: number;
  /** Bytes of the paths watched now. */
  readonly usedBytes: number;
}

/** Data/exists watches and child watches travel in separate lists of SetWatches. */
export type WatchKind = 'data' | 'child';

interface Target {
  readonly fire: (event: WatchedEvent) => void;
  readonly reportPath: string;
  /** The reply to this caller's request was read: its watch is (again) on the server. */
  set: boolean;
}

/**
 * One server-side watch (a path and a kind) and everyone waiting on it. nzc is handed one
 * function per slot, so it keeps one listener per path however many callers wait (it would
 * otherwise keep one per call until the watch fires: a leak, and Node's
 * MaxListenersExceededWarning after ten timed-out waits on one path).
 */
interface Slot {
  readonly bytes: number;
  readonly targets: Set<Target>;
  readonly nzcWatcher: NzcWatcher;
  /** A request with this slot's watcher was answered: the server holds the watch until it fires. */
  onServer: boolean;
}

/** Bytes one path costs inside SetWatches: a length prefix and the UTF-8 path. */
function costOf(path: string): number {
  return 4 + Buffer.byteLength(path);
}

/**
 * Keeps the one-shot watches the server holds for this client, for three reasons:
 * - one nzc listener per watched path and kind, whatever the number of callers (see Slot);
 *   a caller that gives up (its signal aborts) leaves the slot at once;
 * - a budget: nzc re-sends every watched path in one SetWatches packet on reconnect and never
 *   splits it; past the server's jute.maxbuffer the server drops the connection, nzc reconnects
 *   and re-sends, forever. New watches beyond the budget fail before anything is sent;
 * - on a new session every outstanding watch is dead; its watcher gets SESSION_EXPIRED (as the
 *   Java client delivers None/Expired) so whoever waits on it can re-read.
 * The server's consumption of a watch is recorded at once (inside nzc's socket handler, where
 * the notification is read), so a request sent after it sets a new watch; the callers' watchers
 * are called later, through `deliver` (see EventDelivery), each isolated: a throw goes to
 * `onWatcherError`.
 */
export class WatchRegistry {
  readonly #slots = new Map<string, Slot>();
  readonly #budgetBytes: number;
  readonly #onWatcherError: (error: unknown, path: string) => void;
  readonly #deliver: (delivery: () => void) => void;
  #usedBytes = 0;

  constructor(options: {
    budgetBytes: number;
    onWatcherError: (error: unknown, path: string) => void;
    /** Runs a delivery after every reply read before it has been handled (EventDelivery). */
    deliver: (delivery: () => void) => void;
  }) {
    this.#budgetBytes = options.budgetBytes;
    this.#onWatcherError = options.onWatcherError;
    this.#deliver = options.deliver;
  }

  /** Bytes of watched paths, watches whose request is still in flight included. */
  get usedBytes(): number {
    return this.#usedBytes;
  }

  /** Whether a one-shot watch of either kind is (or may be) set on `path` for this client. */
  watches(path: string): boolean {
    return this.#slots.has(`data:${path}`) || this.#slots.has(`child:${path}`);
  }

  /** Fails when a watch on a path not yet watched would exceed the budget. */
  checkBudget(kind: WatchKind, path: string): void {
    if (this.#slots.has(`${kind}:${path}`)) return;
    const needed = this.#usedBytes + costOf(path);
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
   * Adds `watcher` to the slot of (`kind`, `path`) and returns the slot's nzc watcher for the
   * request, `watchSet()` to call as its successful reply is read (synchronously, where nzc
   * registers the watcher) and `cancel()` for its failure. `reportPath` is the path the caller
   * sees (namespace removed). Once `signal` aborts, the watcher leaves.
   *
   * An event read before a caller's reply belongs to the watch as it was before that caller's
   * request: it fires the callers whose replies came first, and this one waits for the next.
   */
  wrap(
    kind: WatchKind,
    path: string,
    reportPath: string,
    watcher: Watcher,
    signal?: AbortSignal,
  ): { nzcWatcher: NzcWatcher; watchSet: () => void; cancel: () => void } {
    const key = `${kind}:${path}`;
    const slot = this.#slots.get(key) ?? this.#openSlot(key, path);
    let done = false;
    let stopListening: (() => void) | undefined;
    const leave = (): void => {
      stopListening?.();
      slot.targets.delete(target);
      if (slot.targets.size === 0 && !slot.onServer) this.#closeSlot(key, slot);
    };
    const target: Target = {
      reportPath,
      set: false,
      fire: (event) => {
        // A caller that gave up before the delivery came hears nothing.
        if (done || signal?.aborted === true) return;
        done = true;
        stopListening?.();
        try {
          watcher(event);
        } catch (error) {
          this.#onWatcherError(error, reportPath);
        }
      },
    };
    slot.targets.add(target);
    if (signal) stopListening = onAbort(signal, leave);
    return {
      nzcWatcher: slot.nzcWatcher,
      watchSet: () => {
        if (this.#slots.get(key) !== slot || !slot.targets.has(target)) return;
        target.set = true;
        slot.onServer = true;
      },
      cancel: leave,
    };
  }

  /** The session is gone: every outstanding watch is told, and the budget starts over. */
  expireAll(): void {
    const slots = [...this.#slots.values()];
    this.#slots.clear();
    this.#usedBytes = 0;
    const targets = slots.flatMap((slot) => [...slot.targets]);
    if (targets.length === 0) return;
    this.#deliver(() => {
      for (const target of targets)
        target.fire({ type: 'SESSION_EXPIRED', path: target.reportPath });
    });
  }

  #openSlot(key: string, path: string): Slot {
    const slot: Slot = {
      bytes: costOf(path),
      targets: new Set(),
      onServer: false,
      nzcWatcher: (event: NzcEvent): void => {
        const type = watchEventTypeOf(event.type);
        if (type === undefined) return;
        // The server watch is used up: whoever asks next sets a new one. Callers whose replies
        // are still to come set it again with them.
        const targets = [...slot.targets].filter((target) => target.set);
        for (const target of targets) slot.targets.delete(target);
        slot.onServer = false;
        if (slot.targets.size === 0) this.#closeSlot(key, slot);
        if (targets.length === 0) return;
        this.#deliver(() => {
          for (const target of targets) target.fire({ type, path: target.reportPath });
        });
      },
    };
    this.#slots.set(key, slot);
    this.#usedBytes += slot.bytes;
    return slot;
  }

  #closeSlot(key: string, slot: Slot): void {
    if (this.#slots.get(key) !== slot) return;
    this.#slots.delete(key);
    this.#usedBytes -= slot.bytes;
  }
}
