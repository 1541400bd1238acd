// Predicates over unknown values, so callers branch on meaning (`isNoNode(err)`) and never
// compare codes by hand. They accept anything a `catch` can produce.
import type { ZooKeeperErrorCodeName } from './zookeeper-error-code.js';
import { ZOOKEEPER_ERROR_BRAND, ZooKeeperError } from './zookeeper-error.js';
import { WatchBudgetExceededError } from './zookeeper-error-classes.js';

/**
 * True for any {@link ZooKeeperError}, including one made by another copy of this package
 * (recognised by a registry symbol where `instanceof` fails).
 */
export function isZooKeeperError(value: unknown): value is ZooKeeperError {
  if (value instanceof ZooKeeperError) return true;
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [ZOOKEEPER_ERROR_BRAND]?: unknown })[ZOOKEEPER_ERROR_BRAND] === true
  );
}

function hasCode(value: unknown, code: ZooKeeperErrorCodeName): boolean {
  return isZooKeeperError(value) && value.code === code;
}

/** The node does not exist (NO_NODE, -101). */
export function isNoNode(err: unknown): boolean {
  return hasCode(err, 'NO_NODE');
}

/** A node already exists at the path (NODE_EXISTS, -110). */
export function isNodeExists(err: unknown): boolean {
  return hasCode(err, 'NODE_EXISTS');
}

/** The expected version did not match (BAD_VERSION, -103). */
export function isBadVersion(err: unknown): boolean {
  return hasCode(err, 'BAD_VERSION');
}

/**
 * The server lacks the feature the request needs (UNIMPLEMENTED, -6): TTL nodes without
 * `zookeeper.extendedTypesEnabled=true`, or a request newer than the server.
 */
export function isUnimplemented(err: unknown): boolean {
  return hasCode(err, 'UNIMPLEMENTED');
}

/** The ensemble does not allow dynamic reconfiguration (RECONFIG_DISABLED, -123). */
export function isReconfigDisabled(err: unknown): boolean {
  return hasCode(err, 'RECONFIG_DISABLED');
}

/** A reconfiguration's new configuration has no synced quorum (NEW_CONFIG_NO_QUORUM, -13). */
export function isNewConfigNoQuorum(err: unknown): boolean {
  return hasCode(err, 'NEW_CONFIG_NO_QUORUM');
}

/** Another reconfiguration is still in progress (RECONFIG_IN_PROGRESS, -14). */
export function isReconfigInProgress(err: unknown): boolean {
  return hasCode(err, 'RECONFIG_IN_PROGRESS');
}

/** A write on a connection to a read-only server (NOT_READ_ONLY, -119); nothing was written. */
export function isNotReadOnly(err: unknown): boolean {
  return hasCode(err, 'NOT_READ_ONLY');
}

/** The node still has children (NOT_EMPTY, -111). */
export function isNotEmpty(err: unknown): boolean {
  return hasCode(err, 'NOT_EMPTY');
}

/** The connection was lost with the operation in flight (CONNECTION_LOSS, -4). */
export function isConnectionLoss(err: unknown): boolean {
  return hasCode(err, 'CONNECTION_LOSS');
}

/** The session expired, or changed under a session-bound sequence (SESSION_EXPIRED, -112). */
export function isSessionExpired(err: unknown): boolean {
  return hasCode(err, 'SESSION_EXPIRED');
}

/** The ACL forbids the operation (NO_AUTH, -102). */
export function isNoAuth(err: unknown): boolean {
  return hasCode(err, 'NO_AUTH');
}

/** The server rejected the client's credentials (AUTH_FAILED, -115): terminal for the client. */
export function isAuthFailed(err: unknown): boolean {
  return hasCode(err, 'AUTH_FAILED');
}

/** The server's OPERATION_TIMEOUT (-7) or our own per-operation deadline. */
export function isOperationTimeout(err: unknown): boolean {
  return hasCode(err, 'OPERATION_TIMEOUT');
}

/** The client was closed (CLOSED, ours). */
export function isClosed(err: unknown): boolean {
  return hasCode(err, 'CLOSED');
}

/**
 * Data a read was asked to decompress is not in the compression provider's format
 * (DATA_INCONSISTENCY, -3; see DataInconsistencyError).
 */
export function isDataInconsistency(err: unknown): boolean {
  return hasCode(err, 'DATA_INCONSISTENCY');
}

/** Bad input caught before sending (INVALID_ARGUMENT, ours). */
export function isInvalidArgument(err: unknown): boolean {
  return hasCode(err, 'INVALID_ARGUMENT');
}

/** A call the object's lifecycle does not allow now (ILLEGAL_STATE, ours). */
export function isIllegalState(err: unknown): boolean {
  return hasCode(err, 'ILLEGAL_STATE');
}

/**
 * A write whose reply was lost, and the server's state cannot tell whether it took effect
 * (OUTCOME_UNKNOWN, ours; see OutcomeUnknownError). With `answered`, also requires that the
 * retry met that code: `isOutcomeUnknown(err, 'NODE_EXISTS')` is a create-if-absent's "the node
 * is there, maybe of our own making".
 */
export function isOutcomeUnknown(err: unknown, answered?: ZooKeeperErrorCodeName): boolean {
  if (!hasCode(err, 'OUTCOME_UNKNOWN')) return false;
  return answered === undefined || hasCode((err as { answer?: unknown }).answer, answered);
}

/**
 * A guarded write (`hold.transaction`, `lease.transaction`, `leadership.transaction`) was
 * refused because its hold is gone (HOLD_LOST, ours; see HoldLostError): nothing was written.
 */
export function isHoldLost(err: unknown): boolean {
  return hasCode(err, 'HOLD_LOST');
}

/**
 * The client's `schemaSet` does not allow the call (SCHEMA_VIOLATION, ours; see
 * SchemaViolationError): refused before anything was sent.
 */
export function isSchemaViolation(err: unknown): boolean {
  return hasCode(err, 'SCHEMA_VIOLATION');
}

/**
 * Whether a retry loop may try again: true exactly for ZooKeeper errors with code
 * CONNECTION_LOSS, OPERATION_TIMEOUT, SESSION_MOVED or SESSION_EXPIRED; false for anything else,
 * including errors that are not ZooKeeper errors at all.
 */
export function isRetryable(err: unknown): boolean {
  return isZooKeeperError(err) && err.retryable;
}

/** True for a watch refused by the client's watch budget (see `watchBudgetBytes`). */
export function isWatchBudgetExceeded(err: unknown): boolean {
  return err instanceof WatchBudgetExceededError;
}
