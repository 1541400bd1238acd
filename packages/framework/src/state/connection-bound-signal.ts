import { onAbort } from '../async/on-abort.js';
import type { ConnectionStream } from './connection-stream.js';

/** The reason a `whileConnected` signal aborts with. */
export const NOT_CONNECTED = new Error('not connected: the request is left to the background');

/** Options of `whileConnected`. */
export interface WhileConnectedOptions {
  /**
   * Also abort after this many ms. A paused server or a silent link still reads as connected
   * until the liveness check declares it dead (2/3 of the session timeout): a cleanup that must
   * stay prompt bounds its wait for the answer here.
   */
  readonly withinMs?: number | undefined;
}

/** What `whileConnected` gives: a signal, and a wait for work on it. */
export interface WhileConnected {
  /** Aborted (with {@link NOT_CONNECTED}) once the client is not connected or closes. */
  readonly signal: AbortSignal;
  /**
   * Resolves true once `work` settles (whatever its outcome: the caller handles that on the
   * promise itself), false as soon as {@link signal} aborts first; never rejects. Disposes.
   */
  wait(work: Promise<unknown>): Promise<boolean>;
  /** Stops following the connection. */
  dispose(): void;
}

/**
 * For work worth waiting for only while the connection is up (a cleanup on release or close,
 * a put in flight at shutdown): a signal aborted at once when the client is not connected, as
 * soon as the connection goes or the client closes, and after `withinMs` when given. Work that
 * needs a connection then goes on in the background (or ends with the session), so a close
 * never waits out an outage.
 */
export function connectionBoundSignal(
  stream: ConnectionStream,
  options: WhileConnectedOptions = {},
): WhileConnected {
  const controller = new AbortController();
  const { signal } = controller;
  const stop = (): void => {
    if (!signal.aborted) controller.abort(NOT_CONNECTED);
  };
  // Aborted already when no connection is up; shared by everything on this connection.
  const connection = stream.connectionSignal();
  let stopFollowing: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  if (connection.aborted) stop();
  else {
    stopFollowing = onAbort(connection, stop);
    if (options.withinMs !== undefined) timer = setTimeout(stop, options.withinMs);
  }
  const dispose = (): void => {
    clearTimeout(timer);
    stopFollowing?.();
    stopFollowing = undefined;
  };
  return {
    signal,
    dispose,
    wait: (work) =>
      new Promise<boolean>((resolve) => {
        if (signal.aborted) {
          dispose();
          resolve(false);
          return;
        }
        const finish = (settled: boolean): void => {
          stopWaiting();
          dispose();
          resolve(settled);
        };
        const stopWaiting = onAbort(signal, () => finish(false));
        work.then(
          () => finish(true),
          () => finish(true),
        );
      }),
  };
}
