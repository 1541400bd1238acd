/**
 * A count shared through ZooKeeper that a semaphore can be sized by (Curator's
 * `SharedCountReader`): `SharedCount` of `@zkrecipes/atomic` is one. The semaphore reads
 * {@link getCount} when an acquire starts and listens for changes while acquires wait.
 */
export interface SharedCountReader {
  /** The current count (Curator's `getCount()`). */
  getCount(): number;
  /**
   * Adds a listener called with the count after each change; returns the function that removes
   * it (`SharedCount.on('countChanged', listener)`).
   */
  on(event: 'countChanged', listener: (count: number) => unknown): () => void;
}
