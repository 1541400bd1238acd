import { Buffer } from 'node:buffer';
import { isNodeExists, isNoNode } from '../errors/predicates.js';
import type { Acl, CreateMode } from '../zk/zookeeper-types.js';
import type { ZooKeeperOperations } from '../zk/zookeeper-operations.js';

/**
 * Makes sure `path` and all its ancestors exist, creating the missing ones in `mode` with
 * empty data (Curator's `ZKPaths.mkdirs`; CONTAINER is its `asContainers`). One attempt: a connection loss rejects and the caller's retry loop runs
 * it again, which is safe because every step tolerates the node already being there.
 *
 * Each level is checked with `exists` before creating, as Curator does: the server checks the
 * parent's CREATE permission before it checks whether the node exists, so creating a node that
 * is already there can fail with NO_AUTH where reading it would succeed.
 */
export async function ensurePath(
  ops: ZooKeeperOperations,
  path: string,
  aclFor: (path: string) => readonly Acl[],
  signal?: AbortSignal,
  mode: 'PERSISTENT' | 'CONTAINER' = 'PERSISTENT',
): Promise<void> {
  const levels = levelsOf(path);
  let restarts = 0;
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i]!;
    if ((await ops.exists(level, undefined, signal)) !== null) continue;
    try {
      await ops.create(level, Buffer.alloc(0), aclFor(level), mode satisfies CreateMode, signal);
    } catch (error) {
      // Someone else made it between our exists and create: that is what we wanted.
      if (isNodeExists(error)) continue;
      // A container above was reaped after we saw it (containers go level by level, the
      // emptied parent at the check after its child): start again from the top, a few times.
      if (isNoNode(error) && restarts < TOP_RESTARTS) {
        restarts++;
        i = -1;
        continue;
      }
      throw error;
    }
  }
}

/** How often ensurePath starts again after an ancestor vanished under it. */
const TOP_RESTARTS = 3;

/** '/a/b/c' -> ['/a', '/a/b', '/a/b/c']; '/' -> []. */
function levelsOf(path: string): string[] {
  const names = path.split('/').filter((name) => name !== '');
  return names.map((_, i) => `/${names.slice(0, i + 1).join('/')}`);
}
