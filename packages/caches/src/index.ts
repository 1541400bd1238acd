// @zkrecipes/caches: explicit named exports only.
export { PathChildrenCache, DEFAULT_CACHE_CONCURRENCY } from './path-children-cache.js';
export type { PathChildrenCacheOptions } from './path-children-cache.js';
export { PathChildrenCacheEventType } from './path-children-cache-event.js';
export type {
  ChildEvent,
  PathChildrenCacheEvent,
  PathChildrenCacheListener,
} from './path-children-cache-event.js';
export { StartMode } from './start-mode.js';
export { NodeCache } from './node-cache.js';
export type { NodeCacheListener, NodeCacheOptions, NodeCacheStartOptions } from './node-cache.js';
export { compareChildData } from './child-data.js';
export type { ChildData } from './child-data.js';
// The lifecycle constant every recipe shares; re-exported so existing imports keep working.
export { RecipeState } from '@zkrecipes/framework';
export type { RecipeError } from '@zkrecipes/framework';
export { CuratorCache } from './curator-cache.js';
export type { CuratorCacheOptions } from './curator-cache.js';
export { CuratorCacheEventType } from './curator-cache-event.js';
export type {
  CuratorCacheEvent,
  CuratorCacheListener,
  CuratorCacheNodeEvent,
} from './curator-cache-event.js';
export { curatorCacheListener } from './curator-cache-listener.js';
export type { CuratorCacheListenerOptions } from './curator-cache-listener.js';
export { PersistentWatcher } from './persistent-watcher.js';
export type {
  PersistentWatcherListener,
  PersistentWatcherOptions,
  PersistentWatcherResetListener,
} from './persistent-watcher.js';
