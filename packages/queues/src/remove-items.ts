// Removing chosen items from a queue (DistributedIdQueue.remove; Curator's tryRemove). Plain
// mode deletes them. Safe mode never removes an item a consumer holds: one multi creates the
// item's lock, deletes the item and deletes the lock, so it fails as a whole (and removes
// nothing) while the lock exists, as Curator's lock-then-delete does, without a lock left
// behind if the caller goes away halfway.
import pLimit from 'p-limit';
import {
  type FrameworkClient,
  isNodeExists,
  isNoNode,
  joinPath,
  op,
  TransactionFailedError,
} from '@zkrecipes/framework';

/** How many removals are in flight at once. */
const CONCURRENCY = 16;

/** Options of {@link removeItems}. */
export interface RemoveItemsOptions {
  readonly client: FrameworkClient;
  readonly queuePath: string;
  /** Safe mode's lock path; undefined for plain mode. */
  readonly lockPath: string | undefined;
  /** Ends the removal (the call's timeout or signal, the queue's close). */
  readonly signal: AbortSignal | undefined;
}

/** Removes the items `names`; resolves how many this call removed. */
export async function removeItems(
  names: readonly string[],
  options: RemoveItemsOptions,
): Promise<number> {
  const limit = pLimit(CONCURRENCY);
  const removed = await Promise.all(names.map((name) => limit(() => removeOne(name, options))));
  return removed.filter(Boolean).length;
}

async function removeOne(name: string, options: RemoveItemsOptions): Promise<boolean> {
  const { client, queuePath, lockPath, signal } = options;
  const itemPath = joinPath(queuePath, name);
  try {
    if (lockPath === undefined) {
      await client.delete(itemPath, { signal, idempotent: true });
    } else {
      const lockNodePath = joinPath(lockPath, name);
      await client.transaction(
        [
          op.create(lockNodePath, { mode: 'EPHEMERAL' }),
          op.delete(itemPath),
          op.delete(lockNodePath),
        ],
        { signal, idempotent: true },
      );
    }
    return true;
  } catch (error) {
    // Gone already (taken, or removed by someone else), or held by a consumer (safe mode).
    if (isNoNode(error)) return false;
    if (error instanceof TransactionFailedError && isNodeExists(error)) return false;
    throw error;
  }
}
