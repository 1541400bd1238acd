// Letting go of a node when the caller does not wait for the answer: the cleanup after an
// acquire that timed out, was aborted or failed, and the release inside withLock. Neither may
// wait out an outage, and neither may hide the caller's own outcome behind a delete's failure.
import {
  deleteOwnNode,
  isRetryable,
  type FrameworkClient,
  type Logger,
} from '@zkrecipes/framework';
import { waitForWake } from './wait-for-wake.js';

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
  client.reportUnhandledError(error, where);
}

/**
 * Deletes a node we queued with but will not hold (`deleteOwnNode`: guaranteed, and awaited
 * only while connected). The delete is sent at once, so this client's next request sees it
 * done; the answer is awaited only until `signal` aborts (not at all once it has: the call's
 * time is over). A failure is reported, never thrown.
 */
export async function removeOwnNode(
  client: FrameworkClient,
  path: string,
  options: { readonly logger: Logger; readonly signal: AbortSignal | undefined },
): Promise<void> {
  const { logger, signal } = options;
  const removing = deleteOwnNode(client, path).catch((error: unknown) =>
    reportDeleteFailure(client, logger, error, `removing ${path}`),
  );
  if (signal === undefined) return removing;
  if (signal.aborted) return;
  await waitForWake(removing, { signal }).catch(() => undefined);
}
