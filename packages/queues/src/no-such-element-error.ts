/**
 * `element()` or `remove()` of an empty SimpleDistributedQueue (Java's NoSuchElementException,
 * which Curator throws there).
 */
export class NoSuchElementError extends Error {
  /** The error class name, for logs and `instanceof`-free checks. */
  override name = 'NoSuchElementError';
  /** Always `'NO_SUCH_ELEMENT'`: a stable code to branch on across package copies. */
  readonly code = 'NO_SUCH_ELEMENT';
  /** The queue's path. */
  readonly path: string;

  constructor(path: string) {
    super(`queue ${path} is empty`);
    this.path = path;
  }
}
