/**
 * `@zkrecipes/framework/recipe-support`: the building blocks the recipe packages share, for
 * anyone writing a recipe of their own on top of the framework: lifecycle state, the client's
 * connection stream (states, losses, close), waiting on a one-shot watch with a deadline, re-arming a watch, isolated event delivery to listeners and
 * subscribers, cleanup of a recipe's own node, and the option checks every recipe runs before
 * it sends anything. An application that only uses the recipes does not need this entry point;
 * everything it needs is in `@zkrecipes/framework`.
 *
 * @module recipe-support
 */

// Lifecycle and events (RecipeState and RecipeError are also in the main entry point: they are
// the types of every recipe's `state` and `errors`)
export { RecipeState } from './recipe-state.js';
export { EventDispatcher } from './event-dispatcher.js';
export type { RecipeError } from './report-recipe-failure.js';
export { reportRecipeFailure } from './report-recipe-failure.js';
export type { RecipeErrorSink } from './report-recipe-failure.js';
// Also in the main entry point (the type of every stream): how a recipe makes its streams
// readable with `for await`
export { iterableObservable } from '../streams/iterable-observable.js';
export type { IterableObservable } from '../streams/iterable-observable.js';

// Waiting: a watch, a deadline, a call's limits, the connection
export { Wake } from './wake.js';
export { WITHDRAWN } from './withdrawn.js';
export { deadlineOf, TIMED_OUT, WakeWait, waitForWake } from './wait-for-wake.js';
export type { WaitForWakeDeadlineOptions, WaitForWakeOptions } from './wait-for-wake.js';
export { RearmableWatch } from './rearmable-watch.js';
export type { RearmableWatchListener, WatchAttempt } from './rearmable-watch.js';
export { Deadline } from './deadline.js';
export type { DeadlineOptions } from './deadline.js';
export { CallLimits, requestSignal, watchSignal } from './call-limits.js';
export { LOOK_ONCE_ANSWER_WAIT_MS, LookOnceSignal } from './look-once-signal.js';
export { whileConnected } from './while-connected.js';
export { NOT_CONNECTED } from '../state/connection-bound-signal.js';
export type { WhileConnected } from '../state/connection-bound-signal.js';
// The connection as recipes see it: states, losses (an epoch), the connection up now, the close
export { connectionStreamOf } from './connection-stream-of.js';
export { prepareIdempotentWrites } from './prepare-idempotent-writes.js';
export { assertClientStarted } from './assert-client-started.js';
export { untilFirstConnection } from './until-first-connection.js';
export { ConnectionStream } from '../state/connection-stream.js';
export type { ConnectionStreamSources, LossCause } from '../state/connection-stream.js';
export type { FirstConnection, FirstConnectionWaitOptions } from '../state/first-connection.js';
// Retrying background work (a node to keep, a delete to finish) the way the retry policy says
export { BackgroundRetry } from '../retry/background-retry.js';
export type { BackgroundRetryOptions } from '../retry/background-retry.js';
// A listener on a signal that many waits share, without Node's per-listener cost and warning
export { onAbort } from '../async/on-abort.js';
// A sleep and a race that end when a signal aborts
export { abortableSleep } from '../async/abortable-sleep.js';
export type { AbortableSleepOptions } from '../async/abortable-sleep.js';
export { untilAborted } from '../async/until-aborted.js';
export { describeValue } from '../errors/describe-value.js';
export type { WhileConnectedOptions } from '../state/connection-bound-signal.js';

// Writes that land only while a hold's node exists (hold.transaction and the like)
export { guardedTransaction } from './guarded-transaction.js';
export type { GuardedTransactionOptions } from './guarded-transaction.js';

// JSON as Curator's Jackson serializers write and read it (byte for byte)
export { formatNumber, JsonSyntaxError, quoteString, readJson, writeJson } from './jackson-json.js';
export type { JsonValue } from './jackson-json.js';

// Cleanup
export { deleteOwnNode, OWN_NODE_ANSWER_WAIT_MS } from './delete-own-node.js';
export type { DeleteOwnNodeOptions } from './delete-own-node.js';

// Node data a recipe reads raw and decompresses itself (caches: watch confirmed first)
export { dataDecompressor } from './data-decompressor.js';

// Telemetry: the client's OpenTelemetry meter, tracer and instruments
export { telemetryOf } from './telemetry-of.js';
export type {
  ClientTelemetry,
  InstrumentationScope,
  InstrumentDescription,
} from '../telemetry/client-telemetry.js';
export { errorTypeOf } from '../telemetry/error-type.js';
export type { Attributes, SpanLike as Span } from '../telemetry/otel-types.js';

// Option checks
export {
  booleanOption,
  checkClient,
  checkEventListener,
  checkFunction,
  checkListener,
  checkOptionsObject,
  checkSignalOptions,
  checkWaitOptions,
  checkRecipeOptions,
  positiveIntegerOption,
  signalOption,
} from '../checks/option-checks.js';
export type { WaitLimitOptions } from '../checks/option-checks.js';
export { checkRetryPolicy } from '../retry/check-retry-policy.js';
