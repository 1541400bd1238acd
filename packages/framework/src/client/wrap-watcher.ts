import type { WatchedEvent, Watcher } from '../zk/zookeeper-types.js';

/** Options of {@link wrapWatcher}. */
export interface WrapWatcherOptions {
  /** Maps the server path of the event to the caller's view (namespace removed). */
  readonly toClient: (serverPath: string) => string;
  /** Where a throwing watcher's error goes (the client's unhandled-errors stream). */
  readonly report: (error: unknown, context: string) => void;
  /** Once aborted, the watcher is never called. Default: none. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Wraps a caller's watcher for one read call. The same wrapped function is handed to every
 * attempt of that call, because a retried read registers the watch again and the server may
 * then hold two one-shot watches for one call; the wrapper lets only the first event through,
 * so the caller's watcher runs at most once per call.
 *
 * It also removes the namespace from the event path, keeps a throwing watcher away from the
 * connection's event handling (the error goes to `report`), and turns into a no-op once
 * `signal` aborts. The server-side watch is not removed by the abort (the wire client has no
 * removeWatches); it stays until it fires or the session ends, and then does nothing.
 */
export function wrapWatcher(watcher: Watcher, options: WrapWatcherOptions): Watcher {
  const { toClient, report, signal } = options;
  let fired = false;
  return (event: WatchedEvent): void => {
    if (fired || signal?.aborted === true) return;
    fired = true;
    const path = toClient(event.path);
    try {
      watcher({ type: event.type, path });
    } catch (error) {
      report(error, `watcher ${path}`);
    }
  };
}
