/**
 * The lifecycle of LeaderSelector and LeaderLatch (Curator's `LeaderLatch.State`): constructed
 * (`LATENT`), taking part after `start()` (`STARTED`), finished after `close()` (`CLOSED`). A
 * recipe is never restarted: `start()` twice, or after `close()`, is an error.
 */
export const LeaderState = {
  LATENT: 'LATENT',
  STARTED: 'STARTED',
  CLOSED: 'CLOSED',
} as const;
export type LeaderState = (typeof LeaderState)[keyof typeof LeaderState];
