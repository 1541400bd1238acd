import { ZooKeeperError } from './zookeeper-error.js';

/**
 * Which rule of a schema a call broke: a create's `ephemeral` or `sequential` allowance, a
 * read's `watched` allowance, `canBeDeleted`, the `dataValidator`, or `schema` when no schema
 * matches the path and the set has no default.
 */
export type SchemaRule =
  'ephemeral' | 'sequential' | 'watched' | 'canBeDeleted' | 'data' | 'schema';

/** Options of {@link SchemaViolationError}. */
export interface SchemaViolationErrorOptions {
  /** The path of the call, as it was given (in the client's namespace). */
  readonly path: string;
  /** The name of the schema that refused the call; undefined when no schema matched. */
  readonly schemaName: string | undefined;
  /** The rule that was broken. */
  readonly rule: SchemaRule;
  /** What was wrong, in Curator's words: `'Cannot be ephemeral'`, `'Data is not valid'`, ... */
  readonly violation: string;
  /** What the data validator threw, when it threw. */
  readonly cause?: unknown;
}

/**
 * SCHEMA_VIOLATION (ours, no wire number; Curator's `SchemaViolation`): the client's
 * `schemaSet` does not allow the call, and **nothing was sent**. `rule` says which rule of the
 * schema named `schemaName` was broken; the message reads
 * `SCHEMA_VIOLATION: /config - Cannot be ephemeral (schema 'config')`.
 *
 * Not retryable: the same call breaks the same rule again.
 */
export class SchemaViolationError extends ZooKeeperError {
  /** Always `'SchemaViolationError'`. */
  override name = 'SchemaViolationError';
  declare readonly code: 'SCHEMA_VIOLATION';
  /** The path of the call, as it was given (in the client's namespace). */
  declare readonly path: string;
  /** The name of the schema that refused the call; undefined when no schema matched. */
  readonly schemaName: string | undefined;
  /** The rule that was broken. */
  readonly rule: SchemaRule;
  /** What was wrong, in Curator's words (`'Cannot be ephemeral'`, `'Must be watched'`, ...). */
  readonly violation: string;

  constructor(options: SchemaViolationErrorOptions) {
    const by = options.schemaName === undefined ? '' : ` (schema '${options.schemaName}')`;
    super('SCHEMA_VIOLATION', {
      path: options.path,
      detail: `${options.violation}${by}`,
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.schemaName = options.schemaName;
    this.rule = options.rule;
    this.violation = options.violation;
  }
}
