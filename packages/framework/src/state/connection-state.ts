/**
 * Curator's connection states.
 * - CONNECTED: the first successful connection only.
 * - SUSPENDED: the connection is gone (or unproven); the session may still be alive.
 * - RECONNECTED: connected again after SUSPENDED or LOST (same or new session).
 * - LOST: the session is considered gone (server said so, or the simulated timer fired).
 * - READ_ONLY: connected to a read-only server (only with `canBeReadOnly`): reads only.
 */
export const ConnectionState = {
  /** The first successful connection; emitted once per client. */
  CONNECTED: 'CONNECTED',
  /** The connection is gone or unproven; the session may still be alive. */
  SUSPENDED: 'SUSPENDED',
  /** Connected again after SUSPENDED or LOST, in the same or a new session. */
  RECONNECTED: 'RECONNECTED',
  /**
   * The session is considered gone (the server said so, or the session timeout elapsed while
   * suspended).
   */
  LOST: 'LOST',
  /**
   * Connected to a read-only server (a server cut off from its quorum), only with
   * `canBeReadOnly`: reads work, writes reject with NotReadOnlyError. Its session is local to
   * that server and holds nothing; recipes treat it as SUSPENDED under the 'standard' policy.
   */
  READ_ONLY: 'READ_ONLY',
} as const;
export type ConnectionState = (typeof ConnectionState)[keyof typeof ConnectionState];

/** Which states a recipe treats as "the hold may be gone" (Curator's ConnectionStateErrorPolicy). */
export const ErrorPolicy = {
  /**
   * SUSPENDED, READ_ONLY and LOST are errors (Curator's StandardConnectionStateErrorPolicy;
   * READ_ONLY because nothing can be held in a read-only server's session).
   */
  STANDARD: 'standard',
  /** Only LOST is an error (Curator's SessionConnectionStateErrorPolicy). */
  SESSION: 'session',
} as const;
export type ErrorPolicy = (typeof ErrorPolicy)[keyof typeof ErrorPolicy];

/** True when `state` means a recipe must assume it lost what it held, under `policy`. */
export function isErrorState(state: ConnectionState, policy: ErrorPolicy): boolean {
  if (state === ConnectionState.LOST) return true;
  return (
    policy === ErrorPolicy.STANDARD &&
    (state === ConnectionState.SUSPENDED || state === ConnectionState.READ_ONLY)
  );
}

/** True when `state` means the client is connected. */
export function isConnectedState(state: ConnectionState): boolean {
  return (
    state === ConnectionState.CONNECTED ||
    state === ConnectionState.RECONNECTED ||
    state === ConnectionState.READ_ONLY
  );
}

/** A state change as listeners and the stream see it. */
export interface ConnectionStateChange {
  /** The state the client moved to. */
  readonly state: ConnectionState;
  /** The session id in force when the change happened (undefined before the first connect). */
  readonly sessionId: bigint | undefined;
  /** True for RECONNECTED when the session is a different one than before. */
  readonly newSession: boolean;
}
