// Recognition: which recipe owns a path is read off its children's names (the layouts are
// Curator's, so nodes made by Java Curator are recognised the same way). Checked from the most
// specific layout to the least: a semaphore's fixed sub-nodes, then the sequence-named
// families, then the presence layouts that need Stats, and finally a plain listing.
import { isNoAuth, isNoNode, joinPath, nodeName, type FrameworkClient } from '@zkrecipes/framework';
import { LockName } from '@zkrecipes/locks';
import { decodeLeaderLatch, latchSequence } from './decode-election.js';
import { decodeMutex, decodeReadWriteLock, decodeSemaphore, hasLockNodes } from './decode-locks.js';
import { decodeDoubleBarrier, decodeGroup, isDoubleBarrier, isGroup } from './decode-membership.js';
import { inspectQueue, queuePrefix } from './decode-queue.js';
import { CliError, ExitCode } from './exit-code.js';
import type { Inspection, TreeEntry } from './inspection.js';
import { nodeView } from './node-view.js';
import { readChildren, readChildrenIfAny, type Znode } from './znode.js';

function treeEntry(node: Znode, now: number): TreeEntry {
  return {
    ...nodeView(node, now),
    numChildren: node.stat.numChildren,
    dataLength: node.stat.dataLength,
  };
}

/**
 * Reads the nodes under `path` and decodes the recipe layout found there, or lists the node
 * and its children when none is recognised (`kind: 'tree'`). A path with no children, or no
 * node at all, holds nothing (`kind: 'empty'`): that is what a free lock looks like. Throws a
 * {@link CliError} with {@link ExitCode.NOT_FOUND} when the path cannot be read with the
 * credentials given.
 *
 * ```ts
 * const inspection = await inspectPath(client, '/app/lock');
 * if (inspection.kind === 'mutex') console.log(inspection.holder?.sessionId);
 * ```
 */
export async function inspectPath(client: FrameworkClient, path: string): Promise<Inspection> {
  try {
    return await inspectExisting(client, path);
  } catch (error) {
    // Also a path deleted while it was being read: it holds nothing now.
    if (isNoNode(error)) return emptyInspection(path, Date.now(), undefined);
    if (isNoAuth(error)) {
      throw new CliError(ExitCode.NOT_FOUND, `not allowed to read ${path} (try --digest)`, {
        cause: error,
      });
    }
    throw error;
  }
}

function emptyInspection(path: string, now: number, node: Znode | undefined): Inspection {
  return {
    path,
    inspectedAt: new Date(now).toISOString(),
    kind: 'empty',
    recipe: 'nothing held',
    ignored: [],
    exists: node !== undefined,
    node: node === undefined ? undefined : treeEntry(node, now),
  };
}

function ownName(path: string): string {
  return path === '/' ? '/' : nodeName(path);
}

async function inspectExisting(client: FrameworkClient, path: string): Promise<Inspection> {
  const { data, stat } = await client.getData(path);
  const names = await client.getChildren(path);
  const now = Date.now();
  if (names.length === 0) return emptyInspection(path, now, { name: ownName(path), stat, data });
  const base = { path, inspectedAt: new Date(now).toISOString() };

  if (names.includes('leases') || (names.length === 1 && names[0] === 'locks')) {
    const [leases, locks] = await Promise.all([
      readChildrenIfAny(client, joinPath(path, 'leases')),
      readChildrenIfAny(client, joinPath(path, 'locks')),
    ]);
    const ignored = names.filter((name) => name !== 'leases' && name !== 'locks');
    return decodeSemaphore({ ...base, ignored }, leases, locks, now);
  }
  if (hasLockNodes(names, [LockName.READ, LockName.WRITE])) {
    return decodeReadWriteLock(base, await readChildren(client, path), now);
  }
  if (hasLockNodes(names, [LockName.MUTEX])) {
    return decodeMutex(base, await readChildren(client, path), now);
  }
  if (names.some((name) => latchSequence(name) !== undefined)) {
    return decodeLeaderLatch(base, await readChildren(client, path), now);
  }
  const prefix = queuePrefix(names);
  if (prefix !== undefined) return inspectQueue(client, base, prefix, now);

  const children = await readChildren(client, path);
  if (isDoubleBarrier(children)) return decodeDoubleBarrier(base, children, now);
  if (isGroup(children)) return decodeGroup(base, children, now);
  return {
    ...base,
    kind: 'tree',
    recipe: 'none recognised',
    ignored: [],
    node: treeEntry({ name: ownName(path), stat, data }, now),
    children: children
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((child) => treeEntry(child, now)),
  };
}
