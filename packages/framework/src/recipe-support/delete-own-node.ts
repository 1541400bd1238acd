// How a recipe lets go of its node (a lock node on release, a latch or member node on close)
// without ever waiting out an outage.
import type { FrameworkClient } from '../client/framework-client.js';
import { isClosed } from '../errors/predicates.js';
import { isAbortOf } from '../retry/retry-loop.js';
import { isConnectedState } from '../state/connection-state.js';

/** Options of {@link deleteOwnNode}. */
export interface DeleteOwnNodeOptions {
  /** The version the node must have; -1 (the default) matches any. */
  readonly version?: number | undefined;
  /** Stop waiting for the answer when it aborts (the delete still goes on in the background). */
  readonly signal?: AbortSignal | undefined;
}

/** The reason a delete is handed to the background: the connection is not there to answer. */
const NOT_CONNECTED = new Error('not connected: the delete goes on in the background');

/**
 * Deletes a node the recipe owns, waiting for the answer only while the client is connected.
 * When it is not (or the connection drops, or `signal` aborts, before the answer), the delete
 * is handed to the client's guaranteed-delete queue, which sends it once the connection is
 * back, and this resolves at once; an ephemeral node also ends with its session. After close
 * it resolves at once: the closed session took its ephemeral nodes with it.
 *
 * Other failures (NO_AUTH, BAD_VERSION, NOT_EMPTY) reject as from `client.delete`.
 */
export async function deleteOwnNode(
  client: FrameworkClient,
  path: string,
  options: DeleteOwnNodeOptions = {},
): Promise<void> {
  if (client.state === 'STOPPED') return;
  const controller = new AbortController();
  const stopWaiting = (reason: unknown): void => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  if (!client.isConnected) stopWaiting(NOT_CONNECTED);
  const { signal, version = -1 } = options;
  if (signal?.aborted === true) stopWaiting(signal.reason);
  const onAbort = (): void => stopWaiting(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  // The state stream replays the current state: a connection already gone stops at once.
  const subscription = controller.signal.aborted
    ? undefined
    : client.connectionStates.subscribe((state) => {
        if (!isConnectedState(state)) stopWaiting(NOT_CONNECTED);
      });
  try {
    await client.delete(path, {
      version,
      guaranteed: true,
      quietly: true,
      signal: controller.signal,
    });
  } catch (error) {
    if (isAbortOf(error, controller.signal) || isClosed(error)) return;
    throw error;
  } finally {
    subscription?.unsubscribe();
    signal?.removeEventListener('abort', onAbort);
  }
}
