// The retry around Curator's lock loop (LockInternals.attemptLock, and InterProcessSemaphoreV2's
// RETRY_DUE_TO_MISSING_NODE): a node we queued with can vanish without our delete, when its
// session ends while we wait. Curator then queues again if the client's retry policy allows.
// One copy for the locks and the semaphore.
import { performance } from 'node:perf_hooks';
import { NoNodeError, type FrameworkClient, type Logger } from '@zkrecipes/framework';
import { abortableSleep } from '@zkrecipes/framework/recipe-support';

/** An attempt's answer when our node is gone although we never deleted it. */
export const NODE_VANISHED = Symbol('node vanished');

/** Where an attempt runs, for its error, its log line and its sleeps. */
export interface VanishedRetryOptions {
  /** The path the attempt queues under, named by the error. */
  readonly path: string;
  readonly logger: Logger;
  /** The call's signal: a sleep between attempts rejects with its reason. */
  readonly signal: AbortSignal | undefined;
}

/**
 * Runs `attempt` until it answers something other than {@link NODE_VANISHED}, sleeping between
 * attempts as the client's retry policy says; when the policy gives up, throws NoNodeError as
 * Curator does. The attempt has already removed what it left behind.
 */
export async function retryWhileVanished<T>(
  client: FrameworkClient,
  options: VanishedRetryOptions,
  attempt: () => Promise<T | typeof NODE_VANISHED>,
): Promise<T> {
  const { path, logger, signal } = options;
  const startMs = performance.now();
  for (let retryCount = 0; ; retryCount++) {
    const outcome = await attempt();
    if (outcome !== NODE_VANISHED) return outcome;
    const error = new NoNodeError({
      path,
      detail: 'our node vanished (its session ended) while we waited',
    });
    const delayMs = client.retryPolicy.nextDelayMs({
      retryCount,
      elapsedMs: performance.now() - startMs,
      error,
    });
    if (delayMs === undefined) throw error;
    logger.info('our node vanished while waiting; queueing again', { retryCount });
    await abortableSleep(delayMs, signal);
  }
}
