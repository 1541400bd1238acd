/**
 * The lifecycle of a long-lived recipe (DESIGN.md section 4): constructed (`LATENT`), running
 * after `start()` (`STARTED`), and finished after `close()` (`CLOSED`). A recipe is never
 * restarted: `start()` twice, or after `close()`, is an error.
 */
export const RecipeState = {
  LATENT: 'LATENT',
  STARTED: 'STARTED',
  CLOSED: 'CLOSED',
} as const;
export type RecipeState = (typeof RecipeState)[keyof typeof RecipeState];
