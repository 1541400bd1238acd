import type { FrameworkClient } from '../client/framework-client.js';
import { isConnectedState } from '../state/connection-state.js';

/** The reason a {@link whileConnected} signal aborts with. */
export const NOT_CONNECTED = new Error('not connected: the request is left to the background');

/**
 * A signal for a request worth waiting for only while the connection is up (a cleanup on
 * release or close): aborted at once when the client is not connected, and as soon as it stops
 * being connected. `dispose()` stops following the connection.
 */
export function whileConnected(client: FrameworkClient): {
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
  return { signal: controller.signal, dispose: () => subscription.unsubscribe() };
}
