import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { isRetryable, isZooKeeperError } from '../errors/predicates.js';
import { describeValue } from '../errors/describe-value.js';
import type { PersistentWatchMode, WatchedEvent } from '../zk/zookeeper-types.js';
import type { SignalOptions } from './operation-options.js';

/** Receives every event of a persistent watch, with paths in the client's namespace. */
export type PersistentWatchListener = (event: WatchedEvent) => void;

/** Options of {@link FrameworkClient.addWatch}. */
export interface AddWatchOptions extends SignalOptions {
  /**
   * `PERSISTENT_RECURSIVE` (the node and everything below it: created, deleted, data changed)
   * or `PERSISTENT` (the node itself, including children changed). Default, as in Curator:
   * `PERSISTENT_RECURSIVE`.
   */
  readonly mode?: PersistentWatchMode | undefined;
}

const MODES: readonly PersistentWatchMode[] = ['PERSISTENT', 'PERSISTENT_RECURSIVE'];

export function checkPersistentWatchMode(mode: unknown): PersistentWatchMode {
  if (mode === undefined) return 'PERSISTENT_RECURSIVE';
  if (!MODES.includes(mode as PersistentWatchMode)) {
    throw new InvalidArgumentError(
      `mode must be 'PERSISTENT' or 'PERSISTENT_RECURSIVE'; got ${describeValue(mode)}`,
    );
  }
  return mode as PersistentWatchMode;
}

/**
 * A persistent watch added by {@link FrameworkClient.addWatch} (Curator's
 * `watchers().add()`). It reports every change until removed, and the client re-adds it on
 * every new connection and session. Changes made while disconnected are not replayed: a
 * user re-reads on RECONNECTED (the re-added watch is in place before any request sent after
 * that news).
 */
export class PersistentWatch {
  /** The watched path, in the client's namespace. */
  readonly path: string;
  /** PERSISTENT or PERSISTENT_RECURSIVE, as added. */
  readonly mode: PersistentWatchMode;
  readonly #remove: () => Promise<void>;
  #removing: Promise<void> | undefined;

  /** @internal */
  constructor(path: string, mode: PersistentWatchMode, remove: () => Promise<void>) {
    this.path = path;
    this.mode = mode;
    this.#remove = remove;
  }

  /**
   * Stops the listener at once and removes the server's watch when no other listener of this
   * client uses the path (removeWatches). Twice is a no-op. A server watch that cannot be
   * removed now (connection lost, client closed) goes with its connection.
   */
  remove(): Promise<void> {
    this.#removing ??= this.#remove().catch((error: unknown) => {
      if (goesWithItsConnection(error)) return;
      throw error;
    });
    return this.#removing;
  }

  /** Calls `remove()`, so `await using` removes the watch at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.remove();
  }
}

function goesWithItsConnection(error: unknown): boolean {
  if (!isZooKeeperError(error)) return false;
  return isRetryable(error) || error.code === 'NO_WATCHER' || error.code === 'CLOSED';
}
