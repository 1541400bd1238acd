/**
 * ZooKeeper's error codes as they travel on the wire: every code in ZooKeeper 3.8's
 * `KeeperException.Code`, under ZooKeeper's names with underscores between the words
 * (`NONODE` is `NO_NODE`).
 *
 * Only real wire numbers live here, so a number read from a reply can be compared with these
 * values without any risk of matching a client library's own codes (the framework's
 * `ZooKeeperLocalErrorCode`).
 *
 * @example
 * ```ts
 * if (reply.err === ZooKeeperErrorCode.NO_NODE) { ... }
 * ```
 */
export const ZooKeeperErrorCode = {
  /** The operation succeeded (0); never carried by an error. */
  OK: 0,
  /** A generic server-side system error (-1). */
  SYSTEM_ERROR: -1,
  /** The server found its own runtime state inconsistent (-2). */
  RUNTIME_INCONSISTENCY: -2,
  /** The server found its data inconsistent (-3). */
  DATA_INCONSISTENCY: -3,
  /**
   * The connection to the server was lost before the reply arrived; the operation may or may not
   * have been applied (-4).
   */
  CONNECTION_LOSS: -4,
  /** A request or reply could not be (de)serialized (-5). */
  MARSHALLING_ERROR: -5,
  /** The server does not implement the requested operation (-6). */
  UNIMPLEMENTED: -6,
  /** The operation timed out (-7). */
  OPERATION_TIMEOUT: -7,
  /** The server rejected the request's arguments, e.g. data over `jute.maxbuffer` (-8). */
  BAD_ARGUMENTS: -8,
  /** The server does not know the session (-12). */
  UNKNOWN_SESSION: -12,
  /** A reconfiguration could not reach a quorum of the new configuration (-13). */
  NEW_CONFIG_NO_QUORUM: -13,
  /** Another reconfiguration is already in progress (-14). */
  RECONFIG_IN_PROGRESS: -14,
  /** A generic API error (-100). */
  API_ERROR: -100,
  /** The znode does not exist (-101). */
  NO_NODE: -101,
  /** The session's credentials lack the permission the znode's ACL requires (-102). */
  NO_AUTH: -102,
  /** The expected version did not match the znode's current version (-103). */
  BAD_VERSION: -103,
  /** Ephemeral znodes cannot have children (-108). */
  NO_CHILDREN_FOR_EPHEMERALS: -108,
  /** A znode already exists at the path (-110). */
  NODE_EXISTS: -110,
  /** The znode cannot be deleted because it has children (-111). */
  NOT_EMPTY: -111,
  /** The session expired; its ephemeral znodes and watches are gone (-112). */
  SESSION_EXPIRED: -112,
  /** An invalid callback was specified (-113). */
  INVALID_CALLBACK: -113,
  /** The ACL is invalid, e.g. empty or with an unknown scheme (-114). */
  INVALID_ACL: -114,
  /** Authentication with the server failed (-115). */
  AUTH_FAILED: -115,
  /** The session moved to another server, so this connection may not use it (-118). */
  SESSION_MOVED: -118,
  /** A write was sent to a read-only server (-119). */
  NOT_READ_ONLY: -119,
  /** Ephemeral znodes cannot be created in a local session (-120). */
  EPHEMERAL_ON_LOCAL_SESSION: -120,
  /** The watch to remove does not exist (-121). */
  NO_WATCHER: -121,
  /** The request did not complete within the server's request timeout (-122). */
  REQUEST_TIMEOUT: -122,
  /** Dynamic reconfiguration is disabled on the server (-123). */
  RECONFIG_DISABLED: -123,
  /** The server closed the session because it requires SASL authentication (-124). */
  SESSION_CLOSED_REQUIRE_SASL_AUTH: -124,
  /** A hard quota on the znode's subtree was exceeded (-125). */
  QUOTA_EXCEEDED: -125,
  /** The server throttled the operation under load; retry later (-127). */
  THROTTLED_OP: -127,
} as const;

/** A number ZooKeeper 3.8 defines as an error code, e.g. `-101`. */
export type ZooKeeperErrorCode = (typeof ZooKeeperErrorCode)[keyof typeof ZooKeeperErrorCode];

/** The name of a wire code, e.g. `'NO_NODE'`. */
export type ZooKeeperWireCodeName = keyof typeof ZooKeeperErrorCode;

// Built once: the reverse of ZooKeeperErrorCode, number -> name.
const namesByNumber: ReadonlyMap<number, ZooKeeperWireCodeName> = new Map(
  (Object.keys(ZooKeeperErrorCode) as ZooKeeperWireCodeName[]).map((name) => [
    ZooKeeperErrorCode[name],
    name,
  ]),
);

/**
 * The name of a wire code: `codeName(-101)` is `'NO_NODE'`. A number ZooKeeper 3.8 does not
 * define (a newer server's code, or garbage) is `'UNKNOWN'`; this never throws.
 */
export function codeName(code: number): ZooKeeperWireCodeName | 'UNKNOWN' {
  return namesByNumber.get(code) ?? 'UNKNOWN';
}
