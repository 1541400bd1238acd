// The subclasses callers branch on, kept together: each is a constructor call and a name, and
// seeing the whole family at once is what tells a reader which codes have a class of their own.
import { ZooKeeperErrorCode } from './zookeeper-error-code.js';
import { ZooKeeperError } from './zookeeper-error.js';

/** What a subclass takes: the path, a detail for the message, and the standard `cause`. */
export interface ZooKeeperErrorDetails extends ErrorOptions {
  /** The znode path of the operation that failed. Default: none. */
  path?: string | undefined;
  /** Added to the message after the code and path. Default: none. */
  detail?: string | undefined;
}

/** NO_NODE (-101): the node (or, for create, its parent) does not exist. */
export class NoNodeError extends ZooKeeperError {
  /** Always `'NoNodeError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'NoNodeError';
  declare readonly code: 'NO_NODE';
  constructor(options: ZooKeeperErrorDetails = {}) {
    super('NO_NODE', { ...options, zkCode: ZooKeeperErrorCode.NO_NODE });
  }
}

/** NODE_EXISTS (-110): create found a node already at the path. */
export class NodeExistsError extends ZooKeeperError {
  /** Always `'NodeExistsError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'NodeExistsError';
  declare readonly code: 'NODE_EXISTS';
  constructor(options: ZooKeeperErrorDetails = {}) {
    super('NODE_EXISTS', { ...options, zkCode: ZooKeeperErrorCode.NODE_EXISTS });
  }
}

/** BAD_VERSION (-103): the node's version is not the one the operation expected. */
export class BadVersionError extends ZooKeeperError {
  /** Always `'BadVersionError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'BadVersionError';
  declare readonly code: 'BAD_VERSION';
  constructor(options: ZooKeeperErrorDetails = {}) {
    super('BAD_VERSION', { ...options, zkCode: ZooKeeperErrorCode.BAD_VERSION });
  }
}

/** NOT_EMPTY (-111): delete of a node that still has children. */
export class NotEmptyError extends ZooKeeperError {
  /** Always `'NotEmptyError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'NotEmptyError';
  declare readonly code: 'NOT_EMPTY';
  constructor(options: ZooKeeperErrorDetails = {}) {
    super('NOT_EMPTY', { ...options, zkCode: ZooKeeperErrorCode.NOT_EMPTY });
  }
}

/**
 * CONNECTION_LOSS (-4): the connection dropped with the operation in flight, so whether it
 * took effect is unknown. Retryable.
 */
export class ConnectionLossError extends ZooKeeperError {
  /** Always `'ConnectionLossError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'ConnectionLossError';
  declare readonly code: 'CONNECTION_LOSS';
  constructor(options: ZooKeeperErrorDetails = {}) {
    super('CONNECTION_LOSS', { ...options, zkCode: ZooKeeperErrorCode.CONNECTION_LOSS });
  }
}

/**
 * SESSION_EXPIRED (-112): the session is gone, and with it its ephemeral nodes and watches.
 * Retryable (in a new session); also thrown when a session-bound sequence saw its session change.
 */
export class SessionExpiredError extends ZooKeeperError {
  /** Always `'SessionExpiredError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'SessionExpiredError';
  declare readonly code: 'SESSION_EXPIRED';
  constructor(options: ZooKeeperErrorDetails = {}) {
    super('SESSION_EXPIRED', { ...options, zkCode: ZooKeeperErrorCode.SESSION_EXPIRED });
  }
}

/** NO_AUTH (-102): the ACL does not allow this operation to this session's identities. */
export class NoAuthError extends ZooKeeperError {
  /** Always `'NoAuthError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'NoAuthError';
  declare readonly code: 'NO_AUTH';
  constructor(options: ZooKeeperErrorDetails = {}) {
    super('NO_AUTH', { ...options, zkCode: ZooKeeperErrorCode.NO_AUTH });
  }
}

/**
 * The server rejected the client's credentials (`authInfo`, or the `sasl` exchange), or requires
 * SASL of a client without it. Terminal: the client stops connecting and every operation
 * rejects with it; create a new client with valid credentials.
 */
export class AuthFailedError extends ZooKeeperError {
  /** Always `'AuthFailedError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'AuthFailedError';
  declare readonly code: 'AUTH_FAILED';
  constructor(options: ZooKeeperErrorDetails = {}) {
    super('AUTH_FAILED', { ...options, zkCode: ZooKeeperErrorCode.AUTH_FAILED });
  }
}

/**
 * NOT_READ_ONLY (-119): a write (or sync) on a connection to a read-only server, which serves
 * reads only (see `canBeReadOnly`). Rejected by the client before anything is sent; nothing was
 * written. Not retryable: retry once the client is back on a read-write server (RECONNECTED).
 */
export class NotReadOnlyError extends ZooKeeperError {
  /** Always `'NotReadOnlyError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'NotReadOnlyError';
  declare readonly code: 'NOT_READ_ONLY';
  constructor(options: ZooKeeperErrorDetails = {}) {
    super('NOT_READ_ONLY', { ...options, zkCode: ZooKeeperErrorCode.NOT_READ_ONLY });
  }
}

/** Options of {@link OperationTimeoutError}. */
export interface OperationTimeoutErrorOptions extends ZooKeeperErrorDetails {
  /**
   * True when the server sent OPERATION_TIMEOUT (-7), which sets `zkCode`. Default: false, our
   * own per-operation deadline ran out and `zkCode` is undefined.
   */
  fromServer?: boolean | undefined;
}

/**
 * OPERATION_TIMEOUT: sent by the server (-7), or our own per-operation deadline ran out.
 * Either way the outcome is unknown. Retryable.
 */
export class OperationTimeoutError extends ZooKeeperError {
  /** Always `'OperationTimeoutError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'OperationTimeoutError';
  declare readonly code: 'OPERATION_TIMEOUT';
  constructor(options: OperationTimeoutErrorOptions = {}) {
    const { fromServer = false, ...rest } = options;
    super('OPERATION_TIMEOUT', {
      ...rest,
      zkCode: fromServer ? ZooKeeperErrorCode.OPERATION_TIMEOUT : undefined,
    });
  }
}

/** CLOSED (ours, no wire number): an operation on a client that was closed. */
export class ClosedError extends ZooKeeperError {
  /** Always `'ClosedError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'ClosedError';
  declare readonly code: 'CLOSED';
  constructor(options: ZooKeeperErrorDetails = {}) {
    super('CLOSED', { ...options, detail: options.detail ?? 'the client is closed' });
  }
}

/**
 * UNIMPLEMENTED (-6): the server lacks the feature the request needs. For the requests the
 * framework writes itself (container and TTL creates, getEphemerals, getAllChildrenNumber)
 * the message names the feature and, where there is one, the server setting that enables it:
 * `UNIMPLEMENTED (-6): /a - TTL nodes are disabled on this server: start it with
 * zookeeper.extendedTypesEnabled=true (ZooKeeper 3.5.3+)`.
 */
export class UnimplementedError extends ZooKeeperError {
  /** Always `'UnimplementedError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'UnimplementedError';
  declare readonly code: 'UNIMPLEMENTED';
  constructor(options: ZooKeeperErrorDetails = {}) {
    super('UNIMPLEMENTED', { ...options, zkCode: ZooKeeperErrorCode.UNIMPLEMENTED });
  }
}

/**
 * DATA_INCONSISTENCY (-3): a read asked to decompress (`compressed: true`, or a client with
 * `compressionEnabled`) found data its compression provider cannot read, e.g. a node written
 * uncompressed. The code Curator gives such a read in the background. `cause` is the
 * provider's error; the node and its data are untouched.
 */
export class DataInconsistencyError extends ZooKeeperError {
  /** Always `'DataInconsistencyError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'DataInconsistencyError';
  declare readonly code: 'DATA_INCONSISTENCY';
  constructor(options: ZooKeeperErrorDetails = {}) {
    super('DATA_INCONSISTENCY', { ...options, zkCode: ZooKeeperErrorCode.DATA_INCONSISTENCY });
  }
}

/**
 * INVALID_ARGUMENT (ours, no wire number): bad input caught before anything was sent. The
 * detail says exactly what was wrong: `INVALID_ARGUMENT: a/b - path must start with "/"`.
 */
export class InvalidArgumentError extends ZooKeeperError {
  /** Always `'InvalidArgumentError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'InvalidArgumentError';
  declare readonly code: 'INVALID_ARGUMENT';
  constructor(detail: string, options: Omit<ZooKeeperErrorDetails, 'detail'> = {}) {
    super('INVALID_ARGUMENT', { ...options, detail });
  }
}

/**
 * ILLEGAL_STATE (ours, no wire number): the call is fine, but not at this point of the object's
 * life: `start()` twice, `start()` after `close()`, an operation before `start()`, `start()` or
 * `close()` on a namespace view (Curator's IllegalStateException).
 */
export class IllegalStateError extends ZooKeeperError {
  /** Always `'IllegalStateError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'IllegalStateError';
  declare readonly code: 'ILLEGAL_STATE';
  constructor(detail: string, options: Omit<ZooKeeperErrorDetails, 'detail'> = {}) {
    super('ILLEGAL_STATE', { ...options, detail });
  }
}

/**
 * INVALID_ARGUMENT, refused before sending: a new watch would take the client's watched paths
 * over its `watchBudgetBytes` (a reconnect must re-send all of them in one packet).
 */
export class WatchBudgetExceededError extends InvalidArgumentError {
  /** Always `'WatchBudgetExceededError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'WatchBudgetExceededError';
}

/**
 * RECONFIG_DISABLED (-123): the ensemble does not allow dynamic reconfiguration (its servers
 * run without `reconfigEnabled=true`).
 */
export class ReconfigDisabledError extends ZooKeeperError {
  /** Always `'ReconfigDisabledError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'ReconfigDisabledError';
  declare readonly code: 'RECONFIG_DISABLED';
  constructor(options: ZooKeeperErrorDetails = {}) {
    super('RECONFIG_DISABLED', { ...options, zkCode: ZooKeeperErrorCode.RECONFIG_DISABLED });
  }
}

/**
 * NEW_CONFIG_NO_QUORUM (-13): the leader refused a reconfiguration because the new
 * configuration has no quorum of connected, synced servers (a joining server not started yet).
 */
export class NewConfigNoQuorumError extends ZooKeeperError {
  /** Always `'NewConfigNoQuorumError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'NewConfigNoQuorumError';
  declare readonly code: 'NEW_CONFIG_NO_QUORUM';
  constructor(options: ZooKeeperErrorDetails = {}) {
    super('NEW_CONFIG_NO_QUORUM', { ...options, zkCode: ZooKeeperErrorCode.NEW_CONFIG_NO_QUORUM });
  }
}

/** RECONFIG_IN_PROGRESS (-14): another reconfiguration is not finished yet; try again later. */
export class ReconfigInProgressError extends ZooKeeperError {
  /** Always `'ReconfigInProgressError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'ReconfigInProgressError';
  declare readonly code: 'RECONFIG_IN_PROGRESS';
  constructor(options: ZooKeeperErrorDetails = {}) {
    super('RECONFIG_IN_PROGRESS', { ...options, zkCode: ZooKeeperErrorCode.RECONFIG_IN_PROGRESS });
  }
}
