import type { Buffer } from 'node:buffer';
import type { CallOrderGate } from './call-order-gate.js';
import type { Logger } from '../logging/logger.js';
import type { RetryPolicy } from '../retry/retry-policy.js';
import type { IterableObservable } from '../streams/iterable-observable.js';
import type { ErrorPolicy } from '../state/connection-state.js';
import type { ClientConnectionState } from '../state/connection-state-manager.js';
import type { ClientHealth } from '../health/client-health.js';
import type { ClientTelemetries } from '../telemetry/client-telemetries.js';
import type { ZooKeeperOperations } from '../zk/zookeeper-operations.js';
import type { WriteWitnesses } from './write-witnesses.js';
import type { DataCompression } from './data-compression.js';
import type { Acl } from '../zk/zookeeper-types.js';
import type { WatchBudget } from '../zk/watch-registry.js';
import type { ServerAddress } from '../paths/connect-string.js';
import type { SchemaSet } from '../schema/schema-set.js';

/** Chooses ACLs for nodes the client creates (Curator's ACLProvider). */
export interface AclProvider {
  /** ACL for `path` (full path, namespace applied); return undefined for the default. */
  aclForPath?(path: string): readonly Acl[] | undefined;
  /** ACL for paths `aclForPath` does not cover (or all paths when it is absent). */
  defaultAcl(): readonly Acl[];
}

/** A failure that had no caller to reject: a throwing listener or watcher, a background retry. */
export interface UnhandledError {
  /** What was thrown or rejected, as is. */
  readonly error: unknown;
  /** Where it happened, e.g. 'stateChanged listener', 'guaranteed delete /a/b'. */
  readonly context: string;
}

/**
 * What the client layer (operations, namespaces, guaranteed deletes) needs from the
 * connection machinery. One context is shared by a client and all its namespace views.
 */
export interface ClientContext {
  /** Single attempts with parking and deadlines; the client adds validation and retries. */
  readonly ops: ZooKeeperOperations;
  /** The witnesses of `idempotent: true` writes (see WriteWitnesses). */
  readonly witnesses: WriteWitnesses;
  readonly retryPolicy: RetryPolicy;
  readonly logger: Logger;
  /** Which states recipes must treat as "what I held may be gone". */
  readonly errorPolicy: ErrorPolicy;
  readonly aclProvider: AclProvider;
  /** The connection's state, its stream for recipes, the session: one owner (see state/). */
  readonly connectionState: ClientConnectionState;
  /** Background failures (watcher callbacks, guaranteed deletes): never unhandled rejections. */
  reportUnhandledError(error: unknown, context: string): void;
  /** The stream `reportUnhandledError` feeds (also logged at error). */
  readonly unhandledErrors: IterableObservable<UnhandledError>;
  /** Bytes of watched paths in use and the budget (`watchBudgetBytes`). */
  watchBudget(): WatchBudget;
  /** Aborted when the client closes; background work stops on it. */
  readonly closedSignal: AbortSignal;
  /** Keeps the call order of operations that wait for their namespace (shared by views). */
  readonly callOrder: CallOrderGate;
  /** The largest request the server accepts (its jute.maxbuffer). */
  readonly maxRequestBytes: number;
  /** Parents made by createParents are CONTAINERs (Curator's default); false: PERSISTENT. */
  readonly useContainerParents: boolean;
  /** The compression provider and whether writes and reads use it by default. */
  readonly compression: DataCompression;
  /** Bytes the connect string's chroot adds to every path on the wire. */
  readonly chrootBytes: number;
  /** The connect string's chroot, undefined for none. */
  readonly chroot: string | undefined;
  /** The servers connection attempts go to now. */
  servers(): readonly ServerAddress[];
  /** Uses `servers` for the next connection attempts; the current connection stays. */
  updateServers(servers: readonly ServerAddress[]): void;
  /**
   * The schemas every call is checked against before it is sent; undefined when there are none
   * to check (no `schemaSet`, or one that allows everything), so a call pays nothing for them.
   */
  readonly schemaSet: SchemaSet | undefined;
  /** Sends credentials to the current session and every later one (see FrameworkClient.addAuth). */
  addAuth(scheme: string, auth: Buffer, signal: AbortSignal | undefined): Promise<void>;
  /** The client's OpenTelemetry meter, tracer and instruments (recipes share them). */
  readonly telemetry: ClientTelemetries;
  /** See `FrameworkClient.health()`. */
  health(): ClientHealth;
}

/** Start/stop of the shared connection, owned by createFramework. */
export interface ClientLifecycle {
  start(): Promise<void>;
  /** Closes the session (ephemerals go at once) and stops background work; twice is a no-op. */
  close(): Promise<void>;
  readonly started: boolean;
  readonly closed: boolean;
}
