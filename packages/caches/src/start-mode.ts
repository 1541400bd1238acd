/** How `PathChildrenCache.start()` primes the cache (Curator's `StartMode`). */
export const StartMode = {
  /** Load in the background; a CHILD_ADDED for every child found. No INITIALIZED. */
  NORMAL: 'NORMAL',
  /** Load before `start()` resolves, without events; changes after that emit events. */
  BUILD_INITIAL_CACHE: 'BUILD_INITIAL_CACHE',
  /** As NORMAL, then one INITIALIZED once every child of the first listing has been read. */
  POST_INITIALIZED_EVENT: 'POST_INITIALIZED_EVENT',
} as const;
export type StartMode = (typeof StartMode)[keyof typeof StartMode];
