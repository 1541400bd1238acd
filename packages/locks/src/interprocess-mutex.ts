import { type FrameworkClient } from '@zkrecipes/framework';
import {
  booleanOption,
  checkListener,
  checkRecipeOptions,
  reportRecipeFailure,
} from '@zkrecipes/framework/recipe-support';
import { checkNodeData } from './check-arguments.js';
import type { FlowScope } from './flow-scope.js';
import { MUTEX_DRIVER } from './lock-driver.js';
import { LockName } from './lock-node-names.js';
import { type AttemptShape, ReentrantLock } from './reentrant-lock.js';
import { type RevocationListener, RevocationWatch } from './revocation-watch.js';

/** A revocable mutex's lock node starts empty, as Curator's (whatever `lockData` says). */
const NO_DATA = new Uint8Array(0);

/** Options of {@link InterProcessMutex}. */
export interface InterProcessMutexOptions {
  /**
   * Data stored in each lock node (Curator's `getLockNodeBytes`; LeaderSelector keeps the
   * participant id there). Default: empty.
   */
  readonly lockData?: Uint8Array | undefined;
  /**
   * `release()` resolves once the delete is sent instead of when ZooKeeper confirms it, so the
   * next request of this client (typically the next acquire) rides in the same round trip and
   * the server can write both to disk in one sync: about twice the cycles per second on a
   * server that syncs every write. The lock stays exclusive; what changes is that another
   * client may still see it taken for a moment after `release()` resolved, and a failed delete
   * is logged (and retried in the background) instead of rejecting `release()`. Default:
   * false, Curator's behaviour.
   */
  readonly pipelineRelease?: boolean | undefined;
}

/**
 * A fair, reentrant mutex across processes (Curator's `InterProcessMutex`), node for node
 * compatible with Curator 5.x: a Java service and a Node service exclude each other on the same
 * path. Waiters queue as `_c_<uuid>-lock-<10-digit sequence>` ephemeral nodes under `path` and
 * each watches only the node ahead of it.
 *
 * Reentrant within a flow (see `runInFlow` and `withLock`); a hold carries a fencing token and a
 * `lost` signal. See docs/recipes/locks.md.
 *
 * @example
 * const mutex = new InterProcessMutex(client, '/app/locks/orders');
 * await using hold = await mutex.acquireHold(0); // a non-blocking check: one read when taken
 * if (hold !== undefined) await work(hold.fencingToken); // released at the end of the scope
 */
export class InterProcessMutex extends ReentrantLock {
  readonly #client: FrameworkClient;
  #revocationListener: RevocationListener<InterProcessMutex> | undefined;
  #revocationWatch: RevocationWatch | undefined;

  constructor(client: FrameworkClient, path: string, options: InterProcessMutexOptions = {}) {
    checkRecipeOptions('InterProcessMutex', options, ['lockData', 'pipelineRelease']);
    super(client, path, {
      driver: MUTEX_DRIVER,
      lockName: LockName.MUTEX,
      maxLeases: 1,
      data: checkNodeData('lockData', options.lockData),
      component: 'InterProcessMutex',
      pipelineRelease: booleanOption('pipelineRelease', options.pipelineRelease, false),
    });
    this.#client = client;
  }

  /**
   * Makes the next acquire revocable (Curator's `makeRevocable`): its lock node starts with
   * empty data and is watched, and when someone writes `__REVOKE__` into it
   * (`Revoker.attemptRevoke`, or Curator's from Java) `listener` is called with this mutex.
   * Revocation is cooperative: the listener should see that the holder releases soon.
   *
   * As in Curator, it applies to acquires that start after this call, and the release that
   * gives the lock back clears it: call it again before each acquire that should be revocable.
   *
   * @example
   * mutex.makeRevocable(() => abortWork.abort('revoked'));
   * await mutex.acquire();
   */
  makeRevocable(listener: RevocationListener<InterProcessMutex>): void {
    checkListener(listener);
    this.#revocationListener = listener;
  }

  /**
   * One release (see `ReentrantLock.release`); the one that gives the lock back also clears
   * {@link makeRevocable} and stops watching for revocation, as Curator's does.
   */
  override async release(): Promise<void> {
    await super.release();
    if (!this.isAcquiredInThisProcess()) {
      this.#revocationListener = undefined;
      this.#revocationWatch?.stop();
    }
  }

  /** @internal A revocable attempt: empty node data, and the node watched once created. */
  protected override prepareAttempt(_scope: FlowScope | undefined): AttemptShape {
    if (this.#revocationListener === undefined) return {};
    const watch = (this.#revocationWatch ??= new RevocationWatch(this.#client, () =>
      this.#revoked(),
    ));
    return { data: NO_DATA, onCreated: (path) => watch.watch(path) };
  }

  #revoked(): void {
    const listener = this.#revocationListener;
    if (listener === undefined) return;
    queueMicrotask(() => {
      try {
        const result = listener(this);
        if (result instanceof Promise) {
          result.catch((error: unknown) =>
            reportRecipeFailure(this.#client, undefined, error, 'revocation listener'),
          );
        }
      } catch (error) {
        reportRecipeFailure(this.#client, undefined, error, 'revocation listener');
      }
    });
  }
}
