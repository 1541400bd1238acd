/**
 * Curator's `ServiceType`, verbatim: how long a registration lives. The node mode follows it:
 * DYNAMIC is EPHEMERAL, DYNAMIC_SEQUENTIAL is EPHEMERAL_SEQUENTIAL (the id is the prefix the
 * server numbers), STATIC and PERMANENT are PERSISTENT.
 */
export const ServiceType = {
  /** Lives as long as the session (an EPHEMERAL node). Curator's default. */
  DYNAMIC: 'DYNAMIC',
  /** Stays after the session (a PERSISTENT node); `close()` still removes it. */
  STATIC: 'STATIC',
  /** Stays after the session (a PERSISTENT node); `close()` still removes it. */
  PERMANENT: 'PERMANENT',
  /** An EPHEMERAL_SEQUENTIAL node: the server appends a 10-digit counter to the id. */
  DYNAMIC_SEQUENTIAL: 'DYNAMIC_SEQUENTIAL',
} as const;
export type ServiceType = (typeof ServiceType)[keyof typeof ServiceType];
