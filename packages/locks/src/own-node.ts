// Letting go of our node (a lock node, a lease) without ever waiting out an outage: on release,
// and in the cleanup after an acquire that timed out, was aborted or failed.
import { isClosed, isRetryable, type FrameworkClient, type Logger } from '@zkrecipes/framework';
import {
  connectionStreamOf,
  deleteOwnNode,
  OWN_NODE_ANSWER_WAIT_MS,
  onAbort,
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
export function releaseOwnNode(client: FrameworkClient, path: string): Promise<void> {
  if (!client.isConnected) return deleteOwnNode(client, path);
  const connection = connectionStreamOf(client).connectionSignal();
  const deleting = client.delete(path, { guaranteed: true, quietly: true });
  // One promise settled by whichever comes first: the answer, the connection going (the delete
  // goes on), or OWN_NODE_ANSWER_WAIT_MS passing. A paused server or a silent link reads as
  // connected until the liveness check gives up on it, so the answer is awaited that long at
  // most, then the delete goes on alone. One promise and no race: this is on every release's
  // way to the wire and back.
  return new Promise<void>((resolve, reject) => {
    let waiting = true;
    const stop = (): boolean => {
      if (!waiting) return false;
      waiting = false;
      clearTimeout(answerWait);
      stopListening();
      return true;
    };
    const answerWait = setTimeout(() => {
      if (stop()) resolve();
    }, OWN_NODE_ANSWER_WAIT_MS).unref();
    const stopListening = connection.aborted
      ? (): void => {}
      : onAbort(connection, () => {
          if (stop()) resolve();
        });
    if (connection.aborted && stop()) resolve();
    deleting.then(
      () => {
        if (stop()) resolve();
      },
      (error: unknown) => {
        if (stop()) {
          // The client closed: the node went with the session.
          if (isClosed(error)) resolve();
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on unchanged
          else reject(error);
        } else if (!connection.aborted && !isClosed(error) && !isRetryable(error)) {
          // Answered after the wait gave up: nobody hears of it but the client's errors.
          reportRecipeFailure(client, undefined, error, `releasing ${path}`);
        }
      },
    );
  });
}

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
 * never thrown. `onRemoving` gets the removal itself, which settles with `releaseOwnNode`'s
 * bounds whatever `signal` does, for a caller that must know the node is gone.
 */
export async function removeOwnNode(
  client: FrameworkClient,
  path: string,
  options: {
    readonly logger: Logger;
    readonly signal: AbortSignal | undefined;
    readonly onRemoving?: ((removed: Promise<void>) => void) | undefined;
  },
): Promise<void> {
  const { logger, signal } = options;
  const removing = releaseOwnNode(client, path).catch((error: unknown) =>
    reportDeleteFailure(client, logger, error, `removing ${path}`),
  );
  options.onRemoving?.(removing);
  if (signal === undefined) return removing;
  if (signal.aborted) return;
  await untilAborted(removing, signal).catch(() => undefined);
}
