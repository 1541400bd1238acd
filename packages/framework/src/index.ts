// @zkrecipes/framework: explicit named exports only.

// The client
export { createFramework } from './create-framework.js';
export type { FrameworkOptions } from './create-framework.js';
export type { DigestMd5SaslOptions, SaslMechanism, SaslOptions } from './sasl/sasl-mechanism.js';
export { DigestMd5Mechanism, type DigestMd5MechanismOptions } from './sasl/digest-md5-mechanism.js';
export { FrameworkClient } from './client/framework-client.js';
export type { FrameworkState } from './client/framework-client.js';
export type {
  BlockUntilConnectedOptions,
  ChildrenWithStat,
  CreatedWithStat,
  CreateOptions,
  CompressedOptions,
  DeleteOptions,
  ExistsOptions,
  GetChildrenOptions,
  GetDataOptions,
  IdempotentOptions,
  OperationOptions,
  SetDataOptions,
  SignalOptions,
  StartOptions,
  TransactionOptions,
  VersionOptions,
  WatchOptions,
} from './client/operation-options.js';
export { op } from './client/transaction-op.js';
export type {
  TransactionCreateOptions,
  TransactionOp,
  TransactionResult,
  TransactionSetDataOptions,
  TransactionVersionOptions,
} from './client/transaction-op.js';
export type { CompressionProvider } from './compression/compression-provider.js';
export { GzipCompressionProvider } from './compression/gzip-compression-provider.js';
export { aclProviderFrom, defaultAclProvider } from './client/acl-provider.js';
export type { AclProvider, UnhandledError } from './client/client-context.js';
export type {
  EnsembleConfigWithStat,
  GetConfigOptions,
  JoiningServer,
  ReconfigOptions,
} from './client/ensemble-operations.js';
export { CONFIG_NODE, formatEnsembleMember, parseEnsembleConfig } from './paths/ensemble-config.js';
export type {
  EnsembleConfig,
  EnsembleMember,
  EnsembleMemberRole,
} from './paths/ensemble-config.js';
export type { WatchBudget } from './zk/watch-registry.js';
export type { StateChangedListener } from './state/subscribe-state-listener.js';

// Health and telemetry
export type { ClientHealth, ConnectionErrorReport } from './health/client-health.js';
export { readinessHandler } from './health/readiness-handler.js';
export type {
  HasHealth,
  ReadinessHandlerOptions,
  ReadinessResponse,
} from './health/readiness-handler.js';
export { INSTRUMENTATION_SCOPE, INSTRUMENTATION_VERSION } from './telemetry/client-telemetries.js';
export type {
  AttributeValue,
  Attributes,
  CounterLike,
  HistogramLike,
  InstrumentOptions,
  MeterLike,
  MeterProviderLike,
  ObservableGaugeLike,
  ObservableResultLike,
  SpanLike,
  SpanOptionsLike,
  SpanStatusLike,
  TracerLike,
  TracerProviderLike,
} from './telemetry/otel-types.js';

// Streams: every stream is an rxjs Observable that `for await` can also read
export { iterableObservable } from './streams/iterable-observable.js';
export type { IterableObservable } from './streams/iterable-observable.js';

// Connection states
export {
  ConnectionState,
  ErrorPolicy,
  isConnectedState,
  isErrorState,
} from './state/connection-state.js';
export type { ConnectionStateChange } from './state/connection-state.js';
export { EventLoopStallDetector } from './state/event-loop-stall-detector.js';
export type {
  EventLoopStall,
  EventLoopStallDetectorOptions,
} from './state/event-loop-stall-detector.js';

// Wire types
export {
  CreateMode,
  CREATOR_ALL_ACL,
  OPEN_ACL_UNSAFE,
  Perms,
  WatchEventType,
} from './zk/zookeeper-types.js';
export { x509Acl } from './client/x509-acl.js';
export type { TlsOption, TlsOptions } from './tls/tls-options.js';
export type {
  Acl,
  PersistentWatchMode,
  SessionCredentials,
  Stat,
  WatchedEvent,
  Watcher,
} from './zk/zookeeper-types.js';
export { PersistentWatch } from './client/persistent-watch.js';
export type { AddWatchOptions, PersistentWatchListener } from './client/persistent-watch.js';

// Errors
export {
  codeName,
  ZooKeeperErrorCode,
  ZooKeeperLocalErrorCode,
} from './errors/zookeeper-error-code.js';
export type {
  ZooKeeperErrorCodeName,
  ZooKeeperWireCodeName,
} from './errors/zookeeper-error-code.js';
export { isRetryableCode, ZooKeeperError } from './errors/zookeeper-error.js';
export type { ZooKeeperErrorOptions } from './errors/zookeeper-error.js';
export {
  BadVersionError,
  ClosedError,
  ConnectionLossError,
  DataInconsistencyError,
  InvalidArgumentError,
  NoAuthError,
  IllegalStateError,
  AuthFailedError,
  NodeExistsError,
  NoNodeError,
  NotEmptyError,
  NotReadOnlyError,
  OperationTimeoutError,
  SessionExpiredError,
  UnimplementedError,
  WatchBudgetExceededError,
  ReconfigDisabledError,
  NewConfigNoQuorumError,
  ReconfigInProgressError,
} from './errors/zookeeper-error-classes.js';
export type {
  OperationTimeoutErrorOptions,
  ZooKeeperErrorDetails,
} from './errors/zookeeper-error-classes.js';
export { OutcomeUnknownError } from './errors/outcome-unknown-error.js';
export { HoldLostError } from './errors/hold-lost-error.js';
export type { HoldLostErrorOptions } from './errors/hold-lost-error.js';
export { SchemaViolationError } from './errors/schema-violation-error.js';
export type { SchemaRule, SchemaViolationErrorOptions } from './errors/schema-violation-error.js';
export { Allowance, Schema } from './schema/schema.js';
export type { SchemaDataInput, SchemaDataValidator, SchemaOptions } from './schema/schema.js';
export { SchemaSet } from './schema/schema-set.js';
export type { SchemaSetOptions } from './schema/schema-set.js';
export type { OutcomeUnknownErrorOptions } from './errors/outcome-unknown-error.js';
export { errorFromCode } from './errors/error-from-code.js';
export type { ErrorFromCodeOptions } from './errors/error-from-code.js';
export {
  isBadVersion,
  isClosed,
  isConnectionLoss,
  isDataInconsistency,
  isInvalidArgument,
  isIllegalState,
  isHoldLost,
  isSchemaViolation,
  isNoAuth,
  isAuthFailed,
  isNodeExists,
  isNoNode,
  isNotEmpty,
  isNotReadOnly,
  isOperationTimeout,
  isOutcomeUnknown,
  isRetryable,
  isSessionExpired,
  isUnimplemented,
  isWatchBudgetExceeded,
  isZooKeeperError,
  isReconfigDisabled,
  isNewConfigNoQuorum,
  isReconfigInProgress,
} from './errors/predicates.js';
export { TransactionFailedError } from './errors/transaction-failed-error.js';
export type { TransactionOpOutcome } from './errors/transaction-failed-error.js';

// Retry
export type { RetryAttempt, RetryPolicy, RetryWarningLogger } from './retry/retry-policy.js';
export { ExponentialBackoffRetry } from './retry/exponential-backoff-retry.js';
export type { ExponentialBackoffRetryOptions } from './retry/exponential-backoff-retry.js';
export { BoundedExponentialBackoffRetry } from './retry/bounded-exponential-backoff-retry.js';
export type { BoundedExponentialBackoffRetryOptions } from './retry/bounded-exponential-backoff-retry.js';
export { RetryNTimes } from './retry/retry-n-times.js';
export type { RetryNTimesOptions } from './retry/retry-n-times.js';
export { RetryOneTime } from './retry/retry-one-time.js';
export type { RetryOneTimeOptions } from './retry/retry-one-time.js';
export { RetryUntilElapsed } from './retry/retry-until-elapsed.js';
export type { RetryUntilElapsedOptions } from './retry/retry-until-elapsed.js';
export { RetryForever } from './retry/retry-forever.js';
export type { RetryForeverOptions } from './retry/retry-forever.js';
export { SessionFailedRetryPolicy } from './retry/session-failed-retry-policy.js';
export { retryLoop } from './retry/retry-loop.js';
export type { RetryInfo, RetryLoopOptions } from './retry/retry-loop.js';
export { runSessionBound } from './retry/session-fail-retry-loop.js';
export type { RunSessionBoundOptions, SessionIdSource } from './retry/session-fail-retry-loop.js';

// Paths
export { MAX_PATH_BYTES, validatePath } from './paths/validate-path.js';
export type { ValidatePathOptions } from './paths/validate-path.js';
export { MAX_NODE_DATA_BYTES, validateData } from './paths/validate-data.js';
export { MAX_TTL_MS } from './client/check-operation-input.js';
export type { ValidateDataOptions } from './paths/validate-data.js';
export { validateTimeoutMs, validateVersion } from './checks/validate-number.js';
export {
  joinPath,
  nodeName,
  parentOf,
  pathWithNamespace,
  pathWithoutNamespace,
  validateNamespace,
} from './paths/zk-paths.js';
export type { PathWithNamespaceOptions } from './paths/zk-paths.js';
export {
  findProtectedNode,
  isProtectedName,
  PROTECTED_PREFIX,
  protectedNodeName,
  protectedPrefix,
  stripProtectedPrefix,
} from './paths/protected-name.js';
export { compareSequence, compareSequenceWrapping, sequenceSuffix } from './paths/sequence.js';
export type { SequenceSuffixOptions } from './paths/sequence.js';

// Logging and lifecycle
export type { Logger } from './logging/logger.js';
export type { LevelLogger } from './logging/with-child.js';
export {
  createDefaultLogger,
  defaultLoggersFlushed,
  LOG_LEVEL_ENV,
} from './logging/create-default-logger.js';
export { silentLogger } from './logging/silent-logger.js';
export type { ConnectionIssueLogging } from './logging/connection-issue-logger.js';
export { registerCloseOnExit } from './lifecycle/close-on-exit.js';
export type { Closable, CloseOnExitOptions } from './lifecycle/close-on-exit.js';

// Recipes' shared lifecycle and error types (the types of every recipe's `state` and `errors`).
// The helpers recipe packages are built from are in '@zkrecipes/framework/recipe-support'.
export { RecipeState } from './recipe-support/recipe-state.js';
export type { RecipeError } from './recipe-support/report-recipe-failure.js';
