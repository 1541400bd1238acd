import { codeName, ZooKeeperErrorCode } from './zookeeper-error-code.js';
import { ZooKeeperError } from './zookeeper-error.js';
import { describeValue } from './describe-value.js';
import {
  AuthFailedError,
  BadVersionError,
  ConnectionLossError,
  DataInconsistencyError,
  NoAuthError,
  NodeExistsError,
  NoNodeError,
  NotEmptyError,
  NotReadOnlyError,
  OperationTimeoutError,
  NewConfigNoQuorumError,
  ReconfigDisabledError,
  ReconfigInProgressError,
  SessionExpiredError,
  UnimplementedError,
  type ZooKeeperErrorDetails,
} from './zookeeper-error-classes.js';

/** Options of {@link errorFromCode}. */
export interface ErrorFromCodeOptions {
  /** The znode path of the failed operation. Default: none. */
  path?: string | undefined;
  /** The original error (e.g. the ZooKeeper client library's exception). Default: none. */
  cause?: unknown;
  /** Extra words for the message after the code and path. Default: none. */
  message?: string | undefined;
}

const subclasses: ReadonlyMap<number, new (options: ZooKeeperErrorDetails) => ZooKeeperError> =
  new Map<number, new (options: ZooKeeperErrorDetails) => ZooKeeperError>([
    [ZooKeeperErrorCode.NO_NODE, NoNodeError],
    [ZooKeeperErrorCode.NODE_EXISTS, NodeExistsError],
    [ZooKeeperErrorCode.BAD_VERSION, BadVersionError],
    [ZooKeeperErrorCode.NOT_EMPTY, NotEmptyError],
    [ZooKeeperErrorCode.CONNECTION_LOSS, ConnectionLossError],
    [ZooKeeperErrorCode.SESSION_EXPIRED, SessionExpiredError],
    [ZooKeeperErrorCode.NO_AUTH, NoAuthError],
    [ZooKeeperErrorCode.AUTH_FAILED, AuthFailedError],
    [ZooKeeperErrorCode.UNIMPLEMENTED, UnimplementedError],
    [ZooKeeperErrorCode.RECONFIG_DISABLED, ReconfigDisabledError],
    [ZooKeeperErrorCode.NEW_CONFIG_NO_QUORUM, NewConfigNoQuorumError],
    [ZooKeeperErrorCode.RECONFIG_IN_PROGRESS, ReconfigInProgressError],
    [ZooKeeperErrorCode.NOT_READ_ONLY, NotReadOnlyError],
    [ZooKeeperErrorCode.DATA_INCONSISTENCY, DataInconsistencyError],
  ]);

/**
 * Turns a wire code into the error to throw: the named subclass where there is one
 * (`-101` -> {@link NoNodeError}), otherwise a base {@link ZooKeeperError} under ZooKeeper's
 * name (`-8` -> `BAD_ARGUMENTS`). A number we have no name for gives code `UNKNOWN` with the
 * number kept in `zkCode`. Never throws, whatever the input (0, `OK`, is not an error; passing it
 * yields a base error with code `OK` so the bug stays visible).
 */
export function errorFromCode(code: number, options: ErrorFromCodeOptions = {}): ZooKeeperError {
  if (typeof options !== 'object' || options === null) options = {};
  if (typeof code !== 'number') {
    // Not a wire code at all (a caller's bug): still an error, never a throw.
    return new ZooKeeperError('UNKNOWN', { detail: `not an error code: ${describeValue(code)}` });
  }
  const details: ZooKeeperErrorDetails = { path: options.path, detail: options.message };
  if (options.cause !== undefined) details.cause = options.cause;
  // OPERATION_TIMEOUT has its own constructor because OperationTimeoutError also stands for our own deadline.
  if (code === ZooKeeperErrorCode.OPERATION_TIMEOUT)
    return new OperationTimeoutError({ ...details, fromServer: true });
  const Subclass = subclasses.get(code);
  if (Subclass !== undefined) return new Subclass(details);
  return new ZooKeeperError(codeName(code), { ...details, zkCode: code });
}
