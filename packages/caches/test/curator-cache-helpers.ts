// Shared by the CuratorCache tests: an event recorder and tree snapshots to compare.
import {
  isNodeExists,
  isNoNode,
  isNotEmpty,
  isOutcomeUnknown,
  joinPath,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { waitFor } from '@zkrecipes/testing';
import type { CuratorCache, CuratorCacheEvent } from '../src/index.js';

/**
 * What a writer churning a tree under faults may meet and go on: another's change came first,
 * or a write cut off by the fault met its own effect on retry (OUTCOME_UNKNOWN).
 */
export function isChurnConflict(error: unknown): boolean {
  return isOutcomeUnknown(error) || isNoNode(error) || isNodeExists(error) || isNotEmpty(error);
}

/** Records a CuratorCache's events as `TYPE path[=data]` lines. */
export class CacheLog {
  readonly events: CuratorCacheEvent[] = [];

  constructor(cache: CuratorCache) {
    cache.events.subscribe((event) => this.events.push(event));
  }

  /** `NODE_CREATED /a/b=data`, `NODE_CHANGED /a=new`, `NODE_DELETED /a`, `INITIALIZED`. */
  get lines(): string[] {
    return this.events.map(describe);
  }

  async waitForLine(line: string): Promise<void> {
    await waitFor(() => this.lines.includes(line), { message: line, intervalMs: 5 });
  }

  clear(): void {
    this.events.length = 0;
  }
}

function describe(event: CuratorCacheEvent): string {
  switch (event.type) {
    case 'NODE_CREATED':
    case 'NODE_CHANGED':
      return `${event.type} ${event.data.path}=${event.data.data?.toString() ?? ''}`;
    case 'NODE_DELETED':
      return `${event.type} ${event.oldData.path}`;
    default:
      return event.type;
  }
}

/** `path=data@mzxid`, sorted by path: equal snapshots mean equal nodes, data and versions. */
export function cacheTree(cache: CuratorCache): string[] {
  return cache.stream().map((n) => `${n.path}=${n.data?.toString() ?? ''}@${n.stat.mzxid}`);
}

/** The server's subtree under `root` in the format of {@link cacheTree}, read afresh. */
export async function serverTree(client: FrameworkClient, root: string): Promise<string[]> {
  const found: [string, string][] = [];
  const visit = async (path: string): Promise<void> => {
    try {
      const { data, stat } = await client.getData(path);
      found.push([path, `${path}=${data.toString()}@${stat.mzxid}`]);
      for (const child of await client.getChildren(path)) await visit(joinPath(path, child));
    } catch (error) {
      if (!isNoNode(error)) throw error;
    }
  };
  await visit(root);
  // By path, as CuratorCache.stream() sorts.
  return found.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, line]) => line);
}

/**
 * Creates and deletes a sentinel under `root` and waits for both events: every event caused
 * by what happened before has been delivered by then. Returns the other lines.
 */
export async function settle(
  writer: FrameworkClient,
  log: CacheLog,
  root: string,
): Promise<string[]> {
  const path = `${root}/zz-sentinel-${log.events.length}`;
  await writer.create(path);
  await log.waitForLine(`NODE_CREATED ${path}=`);
  await writer.delete(path);
  await log.waitForLine(`NODE_DELETED ${path}`);
  return log.lines.filter((line) => !line.includes('zz-sentinel'));
}

/** Waits until the cache holds exactly the server's subtree, as read now. */
export async function waitForServerTree(
  cache: CuratorCache,
  client: FrameworkClient,
  root: string,
): Promise<string[]> {
  const expected = await serverTree(client, root);
  await waitFor(() => JSON.stringify(cacheTree(cache)) === JSON.stringify(expected), {
    message: `the cache to equal ${expected.join(', ')}`,
  });
  return expected;
}
