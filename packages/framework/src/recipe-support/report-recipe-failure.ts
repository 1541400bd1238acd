/** A failure with no caller to reject: a throwing listener, a background read that failed. */
export interface RecipeError {
  /** What was thrown or rejected, as is. */
  readonly error: unknown;
  /** Where it happened, e.g. 'childEvent listener', 'read /app/services/a'. */
  readonly context: string;
}

/** The part of a client a recipe reports through (a FrameworkClient or a namespace view). */
export interface FailureReporter {
  /** Puts `error` on the client's `unhandledErrors` stream (and its log), with `context`. */
  reportUnhandledError(error: unknown, context: string): void;
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
  client: FailureReporter,
  stream: RecipeErrorSink | undefined,
  error: unknown,
  context: string,
): void {
  client.reportUnhandledError(error, context);
  stream?.next({ error, context });
}
