import type { Stat } from '@zkrecipes/framework';

/**
 * One cached node (Curator's `ChildData`): its full path, its Stat and, when the cache keeps
 * data, its bytes. The Buffer is the cache's own copy: treat it as read-only.
 */
export interface ChildData {
  /** The node's full path, in the client's namespace. */
  readonly path: string;
  /** The node's Stat as of the cache's last read of it. */
  readonly stat: Stat;
  /** The node's data; undefined when the cache was built with `cacheData: false`, or cleared. */
  readonly data: Buffer | undefined;
}

/** Orders by path, the order of Curator's `getCurrentData()`. */
export function compareChildData(a: ChildData, b: ChildData): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
