import { describeIssues, type StandardSchemaIssue } from './standard-schema.js';

/**
 * A model node holds data the model cannot read: bytes its serializer cannot decode (not
 * UTF-8, not JSON, empty), or a value its schema refuses. Someone wrote to the model's path
 * without the model, or with another schema.
 *
 * Not a `ZooKeeperError`: the server did nothing wrong, and reading again reads the same bytes.
 */
export class ModelDataError extends Error {
  /** Always `'ModelDataError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'ModelDataError';
  /** Always `'MODEL_DATA'`: a stable code to branch on across package copies. */
  readonly code = 'MODEL_DATA';
  /** The node whose data could not be read (namespace-relative). */
  readonly path: string;
  /** The schema's issues; empty when the bytes could not be decoded at all (see `cause`). */
  readonly issues: readonly StandardSchemaIssue[];
  /** The bytes found there (a copy). */
  readonly data: Uint8Array;

  constructor(
    path: string,
    data: Uint8Array,
    why: { readonly issues: readonly StandardSchemaIssue[] } | { readonly cause: unknown },
  ) {
    const issues = 'issues' in why ? why.issues : [];
    const reason =
      'issues' in why
        ? `does not match the model's schema: ${describeIssues(issues)}`
        : `cannot be decoded: ${why.cause instanceof Error ? why.cause.message : String(why.cause)}`;
    super(`the data of "${path}" ${reason}`, 'cause' in why ? { cause: why.cause } : {});
    this.path = path;
    this.issues = issues;
    this.data = Uint8Array.from(data);
  }
}

/** True for a {@link ModelDataError}. */
export function isModelData(error: unknown): error is ModelDataError {
  return error instanceof ModelDataError;
}
