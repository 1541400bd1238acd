/** What the connection reports to the state machine. */
export type ConnectionEvent =
  /** Connected (or proven alive again); `newSession` when the session differs from the last. */
  | {
      readonly type: 'connected';
      readonly sessionId: bigint;
      readonly sessionTimeoutMs: number;
      readonly newSession: boolean;
      /** The server is read-only (only with canBeReadOnly): reads only. */
      readonly readOnly: boolean;
    }
  /** The connection is gone or unproven; the session may still be alive. */
  | { readonly type: 'disconnected'; readonly reason: string }
  /** The server said the session expired; a fresh handle is already connecting. */
  | { readonly type: 'expired' }
  /** The server rejected the credentials (authInfo). */
  | { readonly type: 'authFailed' };
