// The holder's side of revocation (Curator's LockInternals.revocable): a revocable mutex's
// node is watched from the moment it is created; a data change to `__REVOKE__` calls the
// mutex's revocation listener.
import {
  type FrameworkClient,
  isClosed,
  isNoNode,
  WatchEventType,
  type WatchedEvent,
} from '@zkrecipes/framework';
import { reportRecipeFailure, WITHDRAWN } from '@zkrecipes/framework/recipe-support';
import { REVOKE_MESSAGE } from './revoker.js';

/**
 * Called when someone asks the holder to release (Curator's `RevocationListener`): release the
 * lock as soon as you can. Runs asynchronously; a throw or rejection goes to
 * `client.unhandledErrors`.
 */
export type RevocationListener<T> = (forLock: T) => unknown;

/** @internal Watches lock nodes for `__REVOKE__` until {@link stop}. */
export class RevocationWatch {
  readonly #client: FrameworkClient;
  readonly #onRevoke: () => void;
  #controller = new AbortController();

  constructor(client: FrameworkClient, onRevoke: () => void) {
    this.#client = client;
    this.#onRevoke = onRevoke;
  }

  /**
   * Reads `path` with a data watch, and again on every data change. Data that already reads
   * `__REVOKE__` counts too (Curator only looks on a change, so it misses a request written
   * between the create and its first read).
   */
  watch(path: string): void {
    void this.#check(path, this.#controller.signal);
  }

  /** Silences every watch set so far (Curator's `removeWatchers` on release). */
  stop(): void {
    this.#controller.abort(WITHDRAWN);
    this.#controller = new AbortController();
  }

  async #check(path: string, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    const watch = (event: WatchedEvent): void => {
      if (event.type === WatchEventType.NODE_DATA_CHANGED) void this.#check(path, signal);
    };
    try {
      const { data } = await this.#client.getData(path, { watch, signal });
      if (!signal.aborted && sameBytes(data, REVOKE_MESSAGE)) this.#onRevoke();
    } catch (error) {
      // Gone (released, or its session ended), stopped, or the client closed: nothing to do.
      if (isNoNode(error) || isClosed(error) || signal.aborted) return;
      reportRecipeFailure(this.#client, undefined, error, `revocation watch on ${path}`);
    }
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
