// Numbers from ZooKeeper's wire protocol (ZooDefs.OpCode, KeeperException.Code, CreateMode),
// spelled the way Curator spells them, for the raw session and for tests that check codes.

/** Request types in RequestHeader.type. Only what the raw session sends. */
export const OpCode = {
  create: 1,
  delete: 2,
  exists: 3,
  getData: 4,
  getChildren: 8,
  ping: 11,
  closeSession: -11,
} as const;
export type OpCode = (typeof OpCode)[keyof typeof OpCode];

/** Reserved xids: the server answers pings with xid -2 and sends watch events as xid -1. */
export const Xid = {
  notification: -1,
  ping: -2,
} as const;

/** Create flags: how long a node lives and whether the server appends a sequence number. */
export const CreateMode = {
  PERSISTENT: 0,
  EPHEMERAL: 1,
  PERSISTENT_SEQUENTIAL: 2,
  EPHEMERAL_SEQUENTIAL: 3,
} as const;
export type CreateMode = keyof typeof CreateMode;

/** ZooKeeper's error codes (ReplyHeader.err and KeeperException.Code). */
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
  NOT_READONLY: -119,
  EPHEMERAL_ON_LOCAL_SESSION: -120,
  NO_WATCHER: -121,
  REQUEST_TIMEOUT: -122,
  RECONFIG_DISABLED: -123,
  SESSION_CLOSED_REQUIRE_SASL_AUTH: -124,
  QUOTA_EXCEEDED: -125,
  THROTTLED_OP: -127,
} as const;
export type ZooKeeperErrorCode = (typeof ZooKeeperErrorCode)[keyof typeof ZooKeeperErrorCode];

const CODE_NAMES = new Map<number, string>(
  Object.entries(ZooKeeperErrorCode).map(([name, code]) => [code, name]),
);

/** `NO_NODE` for -101; `UNKNOWN(-999)` for a code this table does not know. */
export function errorCodeName(code: number): string {
  return CODE_NAMES.get(code) ?? `UNKNOWN(${code})`;
}

/** ACL permission bits; 31 is ALL (read, write, create, delete, admin). */
export const Perms = {
  READ: 1,
  WRITE: 2,
  CREATE: 4,
  DELETE: 8,
  ADMIN: 16,
  ALL: 31,
} as const;
