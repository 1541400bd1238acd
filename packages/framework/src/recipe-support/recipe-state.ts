/**
 * The lifecycle of a long-lived recipe (docs/architecture.md, "Recipes"): constructed
 * (`LATENT`), running after `start()` (`STARTED`), and finished after `close()` (`CLOSED`). A recipe is never
 * restarted: `start()` twice, or after `close()`, is an error.
 */
export const RecipeState = {
  /** Constructed; `start()` not called yet. */
  LATENT: 'LATENT',
  /** Running after `start()`. */
  STARTED: 'STARTED',
  /** Finished after `close()`; it cannot be started again. */
  CLOSED: 'CLOSED',
} as const;
export type RecipeState = (typeof RecipeState)[keyof typeof RecipeState];
