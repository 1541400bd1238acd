import type { ChildData } from './child-data.js';

/** The kinds of node change a {@link CuratorCache} reports (Curator's `CuratorCacheListener.Type`). */
export const CuratorCacheEventType = {
  /** A node entered the cache: `data` is the node, `oldData` is undefined. */
  NODE_CREATED: 'NODE_CREATED',
  /** A cached node's data changed (a new version): `oldData` before, `data` after. */
  NODE_CHANGED: 'NODE_CHANGED',
  /** A node left the cache: `oldData` is what was cached, `data` is undefined. */
  NODE_DELETED: 'NODE_DELETED',
  /** The first full read of the tree is done (Curator's `initialized()`); once per cache. */
  INITIALIZED: 'INITIALIZED',
} as const;
export type CuratorCacheEventType =
  (typeof CuratorCacheEventType)[keyof typeof CuratorCacheEventType];

/** A change of one cached node, with the node before and after it as Curator gives them. */
export type CuratorCacheNodeEvent =
  | {
      /** A node entered the cache. */
      readonly type: 'NODE_CREATED';
      /** Always undefined: there was no node before. */
      readonly oldData: undefined;
      /** The node as just read. */
      readonly data: ChildData;
    }
  | {
      /** A cached node's data was set (a new version, even with equal bytes). */
      readonly type: 'NODE_CHANGED';
      /** The node as the cache held it before (without bytes when data is not cached). */
      readonly oldData: ChildData;
      /** The node as just read. */
      readonly data: ChildData;
    }
  | {
      /** A node left the cache. */
      readonly type: 'NODE_DELETED';
      /** The node as the cache last held it. */
      readonly oldData: ChildData;
      /** Always undefined: the node is gone. */
      readonly data: undefined;
    };

/** Everything a {@link CuratorCache} reports, in the order it applied it. */
export type CuratorCacheEvent =
  | CuratorCacheNodeEvent
  | {
      /** The first complete read of the tree is done; once per cache. */
      readonly type: 'INITIALIZED';
    };

/**
 * A Curator-style listener (`CuratorCacheListener`): one function for every event. Build a
 * filtered one with {@link curatorCacheListener}. A throw or rejection goes to the cache's
 * `errors` stream.
 */
export type CuratorCacheListener = (event: CuratorCacheEvent) => unknown;
