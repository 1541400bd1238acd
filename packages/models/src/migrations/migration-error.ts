/**
 * A migration set cannot be applied (Curator's `MigrationException`): what ZooKeeper records
 * as applied is not a prefix of the set (`MISMATCH`: migrations were changed, removed or
 * reordered after they were applied), or the set's lock was not taken in time
 * (`LOCK_TIMEOUT`). Nothing was applied.
 */
export class MigrationError extends Error {
  /** Always `'MigrationError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'MigrationError';
  /** Always `'MIGRATION'`: a stable code to branch on across package copies. */
  readonly code = 'MIGRATION';
  /** Why: `'MISMATCH'` or `'LOCK_TIMEOUT'`. */
  readonly reason: 'MISMATCH' | 'LOCK_TIMEOUT';
  /** The migration set's id. */
  readonly setId: string;

  constructor(setId: string, reason: 'MISMATCH' | 'LOCK_TIMEOUT', message: string) {
    super(`migration set "${setId}": ${message}`);
    this.setId = setId;
    this.reason = reason;
  }
}

/** True for a {@link MigrationError}. */
export function isMigrationError(error: unknown): error is MigrationError {
  return error instanceof MigrationError;
}
