/**
 * The lifecycle of LeaderSelector and LeaderLatch (Curator's `LeaderLatch.State`): constructed
 * (`LATENT`), taking part after `start()` (`STARTED`), finished after `close()` (`CLOSED`). A
 * recipe is never restarted: `start()` twice, or after `close()`, is an error.
 */
export const LeaderState = {
  /** Constructed, not started. */
  LATENT: 'LATENT',
  /** Taking part in the election. */
  STARTED: 'STARTED',
  /** Closed: its node is removed; it never takes part again. */
  CLOSED: 'CLOSED',
} as const;
export type LeaderState = (typeof LeaderState)[keyof typeof LeaderState];
