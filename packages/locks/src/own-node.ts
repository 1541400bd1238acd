// Letting go of our node (a lock node, a lease) without ever waiting out an outage: on release,
// and in the cleanup after an acquire that timed out, was aborted or failed.
import { isClosed, isRetryable, type FrameworkClient, type Logger } from '@zkrecipes/framework';
import {
  connectionStreamOf,
  deleteOwnNode,
  OWN_NODE_ANSWER_WAIT_MS,
  reportRecipeFailure,
  untilAborted,
} from '@zkrecipes/framework/recipe-support';

/**
 * Deletes a node we hold (guaranteed), with `deleteOwnNode`'s contract: the answer is awaited
 * only while the connection is up; without one (or when it goes first) the delete goes on in
 * the background and this resolves at once. Other failures (NO_AUTH, say) reject.
 *
 * While connected, it sends a plain guaranteed delete and races its answer against the
 * connection's shared signal, instead of handing each delete a signal and a state subscription
 * of its own (`deleteOwnNode`): a listener instead of about 45 µs of CPU, a fifth of an
 * uncontended lock cycle's. A delete the connection dropped under goes on in the client's
 * retry loop, then in its guaranteed-delete queue.
 */
export async function releaseOwnNode(client: FrameworkClient, path: string): Promise<void> {
  if (!client.isConnected) return deleteOwnNode(client, path);
  const connection = connectionStreamOf(client).connectionSignal();
  const deleting = client.delete(path, { guaranteed: true, quietly: true });
  // A paused server or a silent link reads as connected until the liveness check gives up on
  // it: the answer is awaited OWN_NODE_ANSWER_WAIT_MS at most, then the delete goes on alone.
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(resolve, OWN_NODE_ANSWER_WAIT_MS, LATE);
  });
  try {
    const outcome = await untilAborted(Promise.race([deleting, late]), connection);
    if (outcome === LATE) {
      deleting.catch((error: unknown) => {
        if (!isClosed(error) && !isRetryable(error)) {
          reportRecipeFailure(client, undefined, error, `releasing ${path}`);
        }
      });
    }
  } catch (error) {
    // The connection went (the delete goes on), or the client closed (the node went with it).
    if ((connection.aborted && error === connection.reason) || isClosed(error)) return;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

const LATE = Symbol('no answer in time');

/**
 * Routes a failed delete of our node that nobody else hears of: a connection problem needs
 * nothing (the guaranteed delete goes on in the background, and an ephemeral ends with its
 * session anyway); anything else (NO_AUTH, say) leaves the node until the session ends, so it
 * goes to `client.unhandledErrors`.
 */
export function reportDeleteFailure(
  client: FrameworkClient,
  logger: Logger,
  error: unknown,
  where: string,
): void {
  if (isRetryable(error)) {
    logger.debug(`${where}: retrying in the background`, { error });
    return;
  }
  reportRecipeFailure(client, undefined, error, where);
}

/**
 * Deletes a node we queued with but will not hold ({@link releaseOwnNode}). The delete is sent
 * at once, so this client's next request sees it done; the answer is awaited only until
 * `signal` aborts (not at all once it has: the call's time is over). A failure is reported,
 * never thrown.
 */
export async function removeOwnNode(
  client: FrameworkClient,
  path: string,
  options: { readonly logger: Logger; readonly signal: AbortSignal | undefined },
): Promise<void> {
  const { logger, signal } = options;
  const removing = releaseOwnNode(client, path).catch((error: unknown) =>
    reportDeleteFailure(client, logger, error, `removing ${path}`),
  );
  if (signal === undefined) return removing;
  if (signal.aborted) return;
  await untilAborted(removing, signal).catch(() => undefined);
}
