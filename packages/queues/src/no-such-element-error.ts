/**
 * `element()` or `remove()` of an empty SimpleDistributedQueue (Java's NoSuchElementException,
 * which Curator throws there).
 */
export class NoSuchElementError extends Error {
  override name = 'NoSuchElementError';
  /** The queue's path. */
  readonly path: string;

  constructor(path: string) {
    super(`queue ${path} is empty`);
    this.path = path;
  }
}
