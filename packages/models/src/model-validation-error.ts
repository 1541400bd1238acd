import { InvalidArgumentError } from '@zkrecipes/framework';
import { describeIssues, type StandardSchemaIssue } from './standard-schema.js';

/**
 * A value given to a model's write does not match the model's schema: refused before anything
 * was sent, like any other bad input (an `InvalidArgumentError`, code `INVALID_ARGUMENT`),
 * with the schema's issues.
 */
export class ModelValidationError extends InvalidArgumentError {
  /** Always `'ModelValidationError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'ModelValidationError';
  /** The schema's issues, as its library reported them. */
  readonly issues: readonly StandardSchemaIssue[];

  constructor(path: string, issues: readonly StandardSchemaIssue[]) {
    super(`the value does not match the model's schema: ${describeIssues(issues)}`, { path });
    this.issues = issues;
  }
}

/** True for a {@link ModelValidationError}. */
export function isModelValidation(error: unknown): error is ModelValidationError {
  return error instanceof ModelValidationError;
}
