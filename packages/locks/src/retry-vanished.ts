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
 * The retries of one acquire whose node vanished (Curator's RETRY_DUE_TO_MISSING_NODE). The
 * caller runs its attempts in its own loop (no callback: one frame less on every request's
 * stack) and calls {@link afterVanished} each time one answers {@link NODE_VANISHED}; the
 * attempt has already removed what it left behind.
 */
export class VanishedRetries {
  readonly #client: FrameworkClient;
  readonly #options: VanishedRetryOptions;
  readonly #startMs = performance.now();
  #retryCount = 0;

  constructor(client: FrameworkClient, options: VanishedRetryOptions) {
    this.#client = client;
    this.#options = options;
  }

  /**
   * Sleeps as the client's retry policy says before the next attempt; when the policy gives
   * up, throws NoNodeError as Curator does.
   */
  async afterVanished(): Promise<void> {
    const { path, logger, signal } = this.#options;
    const retryCount = this.#retryCount++;
    const error = new NoNodeError({
      path,
      detail: 'our node vanished (its session ended) while we waited',
    });
    const delayMs = this.#client.retryPolicy.nextDelayMs({
      retryCount,
      elapsedMs: performance.now() - this.#startMs,
      error,
    });
    if (delayMs === undefined) throw error;
    logger.info('our node vanished while waiting; queueing again', { retryCount });
    await abortableSleep(delayMs, signal);
  }
}
