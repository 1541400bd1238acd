import type { ChildData } from './child-data.js';

/** Curator's `PathChildrenCacheEvent.Type`, verbatim. */
export const PathChildrenCacheEventType = {
  CHILD_ADDED: 'CHILD_ADDED',
  CHILD_UPDATED: 'CHILD_UPDATED',
  CHILD_REMOVED: 'CHILD_REMOVED',
  INITIALIZED: 'INITIALIZED',
  CONNECTION_SUSPENDED: 'CONNECTION_SUSPENDED',
  CONNECTION_RECONNECTED: 'CONNECTION_RECONNECTED',
  CONNECTION_LOST: 'CONNECTION_LOST',
} as const;
export type PathChildrenCacheEventType =
  (typeof PathChildrenCacheEventType)[keyof typeof PathChildrenCacheEventType];

/** A change of one child: what the cache holds for it now (for REMOVED: what it last held). */
export interface ChildEvent {
  readonly type: 'CHILD_ADDED' | 'CHILD_UPDATED' | 'CHILD_REMOVED';
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
  | { readonly type: 'CONNECTION_SUSPENDED' | 'CONNECTION_RECONNECTED' | 'CONNECTION_LOST' };

/** A Curator-style listener (`PathChildrenCacheListener.childEvent`). */
export type PathChildrenCacheListener = (event: PathChildrenCacheEvent) => unknown;
