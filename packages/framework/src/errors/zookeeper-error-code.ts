/**
 * ZooKeeper's error codes as they travel on the wire: every code in ZooKeeper 3.8's
 * `KeeperException.Code`, under ZooKeeper's names with underscores between the words
 * (`NONODE` is `NO_NODE`).
 *
 * Only real wire numbers live here, so a number read from a reply can be compared with these
 * values without any risk of matching one of our own codes (see {@link ZooKeeperLocalErrorCode}).
 *
 * @example
 * ```ts
 * if (reply.err === ZooKeeperErrorCode.NO_NODE) { ... }
 * ```
 */
export const ZooKeeperErrorCode = {
  OK: 0,
  SYSTEM_ERROR: -1,
  RUNTIME_INCONSISTENCY: -2,
  DATA_INCONSISTENCY: -3,
  CONNECTION_LOSS: -4,
  MARSHALLING_ERROR: -5,
  UNIMPLEMENTED: -6,
  OPERATION_TIMEOUT: -7,
  BAD_ARGUMENTS: -8,
  UNKNOWN_SESSION: -12,
  NEW_CONFIG_NO_QUORUM: -13,
  RECONFIG_IN_PROGRESS: -14,
  API_ERROR: -100,
  NO_NODE: -101,
  NO_AUTH: -102,
  BAD_VERSION: -103,
  NO_CHILDREN_FOR_EPHEMERALS: -108,
  NODE_EXISTS: -110,
  NOT_EMPTY: -111,
  SESSION_EXPIRED: -112,
  INVALID_CALLBACK: -113,
  INVALID_ACL: -114,
  AUTH_FAILED: -115,
  SESSION_MOVED: -118,
  NOT_READ_ONLY: -119,
  EPHEMERAL_ON_LOCAL_SESSION: -120,
  NO_WATCHER: -121,
  REQUEST_TIMEOUT: -122,
  RECONFIG_DISABLED: -123,
  SESSION_CLOSED_REQUIRE_SASL_AUTH: -124,
  QUOTA_EXCEEDED: -125,
  THROTTLED_OP: -127,
} as const;

/** A number ZooKeeper 3.8 defines as an error code, e.g. `-101`. */
export type ZooKeeperErrorCode = (typeof ZooKeeperErrorCode)[keyof typeof ZooKeeperErrorCode];

/** The name of a wire code, e.g. `'NO_NODE'`. */
export type ZooKeeperWireCodeName = keyof typeof ZooKeeperErrorCode;

/**
 * Codes of our own that never travel on the wire, so they have no number:
 * - `CLOSED`: an operation on a client that was closed;
 * - `INVALID_ARGUMENT`: bad input caught before anything was sent;
 * - `UNKNOWN`: the server sent a number we have no name for (the number is kept in `zkCode`).
 */
export const ZooKeeperLocalErrorCode = {
  CLOSED: 'CLOSED',
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  UNKNOWN: 'UNKNOWN',
} as const;

/** One of our own codes: `'CLOSED' | 'INVALID_ARGUMENT' | 'UNKNOWN'`. */
export type ZooKeeperLocalErrorCode =
  (typeof ZooKeeperLocalErrorCode)[keyof typeof ZooKeeperLocalErrorCode];

/** Every code a {@link ZooKeeperError} can carry: ZooKeeper's names plus our own. */
export type ZooKeeperErrorCodeName = ZooKeeperWireCodeName | ZooKeeperLocalErrorCode;

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
