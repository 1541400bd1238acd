import type { ChildData } from './child-data.js';

/** Curator's `PathChildrenCacheEvent.Type`, verbatim. */
export const PathChildrenCacheEventType = {
  /** A child appeared in the cache. */
  CHILD_ADDED: 'CHILD_ADDED',
  /** A cached child's data or Stat changed. */
  CHILD_UPDATED: 'CHILD_UPDATED',
  /** A child left the cache. */
  CHILD_REMOVED: 'CHILD_REMOVED',
  /** Every child of the first listing has been read (`POST_INITIALIZED_EVENT` start mode only). */
  INITIALIZED: 'INITIALIZED',
  /** The client's connection is SUSPENDED; the cache may be going stale. */
  CONNECTION_SUSPENDED: 'CONNECTION_SUSPENDED',
  /** The client reconnected; the cache refreshes itself. */
  CONNECTION_RECONNECTED: 'CONNECTION_RECONNECTED',
  /** The client's session is considered LOST. */
  CONNECTION_LOST: 'CONNECTION_LOST',
} as const;
export type PathChildrenCacheEventType =
  (typeof PathChildrenCacheEventType)[keyof typeof PathChildrenCacheEventType];

/** A change of one child: what the cache holds for it now (for REMOVED: what it last held). */
export interface ChildEvent {
  /** Which change happened to the child. */
  readonly type: 'CHILD_ADDED' | 'CHILD_UPDATED' | 'CHILD_REMOVED';
  /** The child as the cache holds it now; for CHILD_REMOVED, as it last held it. */
  readonly data: ChildData;
}

/**
 * What a PathChildrenCache reports. Child events describe the difference between the cache's
 * previous and current view, not every change on the server: two quick updates of one child can
 * arrive as one CHILD_UPDATED (an eventually consistent view, not an event log).
 */
export type PathChildrenCacheEvent =
  | ChildEvent
  | {
      /** POST_INITIALIZED_EVENT only: every child of the first listing has been read. */
      readonly type: 'INITIALIZED';
      /** The cache's content at that moment, sorted by path. */
      readonly initialData: readonly ChildData[];
    }
  | {
      /** The client's connection state changed; the cache's content may lag until it reconnects. */
      readonly type: 'CONNECTION_SUSPENDED' | 'CONNECTION_RECONNECTED' | 'CONNECTION_LOST';
    };

/** A Curator-style listener (`PathChildrenCacheListener.childEvent`). */
export type PathChildrenCacheListener = (event: PathChildrenCacheEvent) => unknown;
