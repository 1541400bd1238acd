// How a recipe lets go of its node (a lock node on release, a latch or member node on close)
// without ever waiting out an outage.
import type { FrameworkClient } from '../client/framework-client.js';
import { isClosed } from '../errors/predicates.js';
import { isAbortOf } from '../async/until-aborted.js';
import { whileConnected } from './while-connected.js';

/**
 * How long a recipe letting go of its node waits for the server's answer while connected. A
 * loopback delete answers in well under a millisecond; a paused server or a silent link is only
 * declared dead after 2/3 of the session timeout, and release or close must not wait for that.
 * After this the delete goes on in the background (guaranteed).
 */
export const OWN_NODE_ANSWER_WAIT_MS = 1_000;

/** Options of {@link deleteOwnNode}. */
export interface DeleteOwnNodeOptions {
  /** The version the node must have; -1 (the default) matches any. */
  readonly version?: number | undefined;
  /** Stop waiting for the answer when it aborts (the delete still goes on in the background). */
  readonly signal?: AbortSignal | undefined;
  /** Stop waiting for the answer after this many ms; {@link OWN_NODE_ANSWER_WAIT_MS} by default. */
  readonly answerWaitMs?: number | undefined;
}

/**
 * Deletes a node the recipe owns, waiting for the answer only while the client is connected,
 * and at most `answerWaitMs`. When it is not (or the connection drops, the wait runs out, or
 * `signal` aborts, before the answer), the delete
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
  const { signal: callerSignal, version = -1, answerWaitMs = OWN_NODE_ANSWER_WAIT_MS } = options;
  const connection = whileConnected(client, { withinMs: answerWaitMs });
  const signal =
    callerSignal === undefined
      ? connection.signal
      : AbortSignal.any([connection.signal, callerSignal]);
  try {
    await client.delete(path, { version, guaranteed: true, quietly: true, signal });
  } catch (error) {
    if (isAbortOf(error, signal) || isClosed(error)) return;
    throw error;
  } finally {
    connection.dispose();
  }
}
