import { RecipeState } from '@zkrecipes/framework';

/**
 * The lifecycle of LeaderSelector and LeaderLatch (Curator's `LeaderLatch.State`): the
 * framework's {@link RecipeState} (LATENT, STARTED, CLOSED) under the name Curator users look for.
 */
export const LeaderState = RecipeState;
/** LATENT, STARTED or CLOSED. */
export type LeaderState = RecipeState;
