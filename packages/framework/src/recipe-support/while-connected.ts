import type { FrameworkClient } from '../client/framework-client.js';
import { isConnectedState } from '../state/connection-state.js';

/** The reason a {@link whileConnected} signal aborts with. */
export const NOT_CONNECTED = new Error('not connected: the request is left to the background');

/** Options of {@link whileConnected}. */
export interface WhileConnectedOptions {
  /**
   * Also abort after this many ms. A paused server or a silent link still reads as connected
   * until the liveness check declares it dead (2/3 of the session timeout): a cleanup that must
   * stay prompt bounds its wait for the answer here.
   */
  readonly withinMs?: number | undefined;
}

/**
 * A signal for a request worth waiting for only while the connection is up (a cleanup on
 * release or close): aborted at once when the client is not connected, as soon as it stops
 * being connected, and after `withinMs` when given. `dispose()` stops following the connection.
 */
export function whileConnected(
  client: FrameworkClient,
  options: WhileConnectedOptions = {},
): {
  /** Aborted (with {@link NOT_CONNECTED}) once the client is not connected. */
  readonly signal: AbortSignal;
  /** Stops following the connection. */
  dispose(): void;
} {
  const controller = new AbortController();
  const stop = (): void => {
    if (!controller.signal.aborted) controller.abort(NOT_CONNECTED);
  };
  if (!client.isConnected) {
    stop();
    return { signal: controller.signal, dispose: () => undefined };
  }
  // The state stream replays the current state: a connection already gone stops at once.
  const subscription = client.connectionStates.subscribe((state) => {
    if (!isConnectedState(state)) stop();
  });
  const timer = options.withinMs === undefined ? undefined : setTimeout(stop, options.withinMs);
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      subscription.unsubscribe();
    },
  };
}
