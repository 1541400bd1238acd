import { REPORT_UNHANDLED, type FrameworkClient } from '../client/framework-client.js';

/** A failure with no caller to reject: a throwing listener, a background read that failed. */
export interface RecipeError {
  /** What was thrown or rejected, as is. */
  readonly error: unknown;
  /** Where it happened, e.g. 'childEvent listener', 'read /app/services/a'. */
  readonly context: string;
}

/** Where a recipe publishes its own failures, e.g. the Subject behind its `errors` stream. */
export interface RecipeErrorSink {
  /** Publishes one failure to the recipe's own stream. */
  next(value: RecipeError): void;
}

/**
 * Reports a failure nobody awaits (a listener that threw, a background read that failed) once
 * for everyone who may watch for it: on the client's `unhandledErrors` (and the client's log, at
 * error) for the application that watches one stream for all its recipes, and on the recipe's
 * own stream for code that watches only that recipe. The recipe must not log it again. Pass no
 * stream when the recipe has none or it is closed.
 */
export function reportRecipeFailure(
  client: FrameworkClient,
  stream: RecipeErrorSink | undefined,
  error: unknown,
  context: string,
): void {
  client[REPORT_UNHANDLED](error, context);
  stream?.next({ error, context });
}
