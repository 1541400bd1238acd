/**
 * A node's data cannot be read as the value the recipe stores there: a SharedCount node with
 * fewer than 4 bytes, a DistributedAtomicLong node with 1 to 7 bytes (Curator throws a
 * `RuntimeException("Corrupted data for node ...")` for the latter). Someone other than the
 * recipe wrote to its path.
 *
 * Not a `ZooKeeperError`: the server did nothing wrong, and retrying reads the same bytes.
 */
export class CorruptedValueError extends Error {
  /** Always `'CorruptedValueError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'CorruptedValueError';
  /** Always `'CORRUPTED_VALUE'`: a stable code to branch on across package copies. */
  readonly code = 'CORRUPTED_VALUE';
  /** The node whose data could not be read. */
  readonly path: string;
  /** The bytes found there (a copy). */
  readonly data: Uint8Array;

  constructor(path: string, data: Uint8Array, expected: string) {
    const bytes = [...data].map((byte) => `0x${byte.toString(16)}`).join(', ');
    super(`corrupted data for node "${path}": [${bytes}]; expected ${expected}`);
    this.path = path;
    this.data = Uint8Array.from(data);
  }
}

/** True for a {@link CorruptedValueError}. */
export function isCorruptedValue(error: unknown): error is CorruptedValueError {
  return error instanceof CorruptedValueError;
}
