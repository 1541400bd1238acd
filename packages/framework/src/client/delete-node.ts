import { isNoNode, isNotEmpty } from '../errors/predicates.js';
import { joinPath } from '../paths/zk-paths.js';
import type { ZooKeeperOperations } from '../zk/zookeeper-operations.js';

/** What one delete attempt does (server paths, validated input). */
export interface DeleteNodeOptions {
  /** The version the node must have; -1 matches any. */
  readonly version: number;
  /** Remove the subtree first when the node has children. */
  readonly deleteChildren: boolean;
  /** Treat NO_NODE (the node is already gone) as success. */
  readonly quietly: boolean;
}

/**
 * One attempt at deleting `path` (the delete itself by `deleteOnce`: a client's delete sends it
 * with a witness or notes a lost reply), used by the foreground delete (inside the retry loop) and by
 * the guaranteed-delete queue (one attempt per background try).
 *
 * With `deleteChildren`, a NOT_EMPTY reply makes it remove the subtree depth-first and then
 * delete the node again (Curator's `deletingChildrenIfNeeded`, via `ZKPaths.deleteChildren`).
 * Children that vanish meanwhile (NO_NODE) are fine: someone else did our work. A child added
 * after the listing makes the final delete fail with NOT_EMPTY, as in Curator; we do not chase
 * a writer that keeps adding.
 */
export async function deleteNode(
  ops: ZooKeeperOperations,
  path: string,
  options: DeleteNodeOptions,
  signal?: AbortSignal,
  deleteOnce: () => Promise<void> = () => ops.delete(path, options.version, signal),
): Promise<void> {
  try {
    await deleteOnce();
  } catch (error) {
    if (isNoNode(error) && options.quietly) return;
    if (!isNotEmpty(error) || !options.deleteChildren) throw error;
    await deleteChildren(ops, path, signal);
    try {
      await deleteOnce();
    } catch (again) {
      if (isNoNode(again) && options.quietly) return;
      throw again;
    }
  }
}

/**
 * Deletes every descendant of `path`, one request at a time (no fan-out: a big subtree must
 * not flood the connection). Each child is deleted directly and only listed when it turns out
 * to have children of its own, which saves a read per leaf.
 */
async function deleteChildren(
  ops: ZooKeeperOperations,
  path: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  let children: string[];
  try {
    ({ children } = await ops.getChildren(path, undefined, signal));
  } catch (error) {
    if (isNoNode(error)) return;
    throw error;
  }
  for (const child of children) {
    await deleteNode(
      ops,
      joinPath(path, child),
      { version: -1, deleteChildren: true, quietly: true },
      signal,
    );
  }
}
