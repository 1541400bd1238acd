/**
 * Wire-level types shared by the adapter, the connection and the client layer. These are our
 * own declarations: node-zookeeper-client's published typings are wrong in places. Stat, Acl
 * and Perms are the protocol's own records, defined once in @zkrecipes/wire.
 */
import { Perms, type Acl, type MultiOp, type Stat } from '@zkrecipes/wire';

export { Perms } from '@zkrecipes/wire';
export type { Acl, Stat } from '@zkrecipes/wire';

/**
 * ZooKeeper's create modes, Curator's names verbatim.
 *
 * CONTAINER and the TTL modes are sent with the requests node-zookeeper-client lacks
 * (createContainer, op 19; createTTL, op 21), written by the framework itself. CONTAINER needs
 * ZooKeeper 3.5.1+; the TTL modes also need the server started with
 * `zookeeper.extendedTypesEnabled=true` (otherwise it answers UNIMPLEMENTED, and the error says
 * so). A TTL mode needs `ttlMs` in the create's options; no other mode takes it.
 */
export const CreateMode = {
  /** A znode that stays until it is deleted. */
  PERSISTENT: 'PERSISTENT',
  /** A znode deleted by the server when the creating session ends. */
  EPHEMERAL: 'EPHEMERAL',
  /**
   * A persistent znode whose name gets a 10-digit, monotonically increasing suffix from its parent.
   */
  PERSISTENT_SEQUENTIAL: 'PERSISTENT_SEQUENTIAL',
  /**
   * An ephemeral znode whose name gets a 10-digit, monotonically increasing suffix from its parent.
   */
  EPHEMERAL_SEQUENTIAL: 'EPHEMERAL_SEQUENTIAL',
  /**
   * A container (ZooKeeper 3.5.1+): a persistent znode the server deletes once it has had at
   * least one child and has none left, at its next container check (`znode.container.checkIntervalMs`,
   * one minute by default). What recipes' parents are made as by default (see `createParents`).
   * A container that never had a child stays. Creating a child under a container the server
   * just reaped fails with NO_NODE: make the child with `createParents`.
   */
  CONTAINER: 'CONTAINER',
  /**
   * A persistent znode the server deletes once it has no children and its data was not set
   * for `ttlMs` (counted from mtime). Needs `zookeeper.extendedTypesEnabled=true` on the server.
   */
  PERSISTENT_WITH_TTL: 'PERSISTENT_WITH_TTL',
  /** {@link CreateMode.PERSISTENT_WITH_TTL} with a sequence suffix, as PERSISTENT_SEQUENTIAL. */
  PERSISTENT_SEQUENTIAL_WITH_TTL: 'PERSISTENT_SEQUENTIAL_WITH_TTL',
} as const;
export type CreateMode = (typeof CreateMode)[keyof typeof CreateMode];

/** `world:anyone` with all permissions: ZooKeeper's OPEN_ACL_UNSAFE. */
export const OPEN_ACL_UNSAFE: readonly Acl[] = [
  { perms: Perms.ALL, id: { scheme: 'world', id: 'anyone' } },
];

/**
 * All permissions for the identities the creating session is authenticated as (`auth` scheme,
 * ZooKeeper's CREATOR_ALL_ACL): with digest credentials the digest user, over TLS with a client
 * certificate its `x509` subject. The create fails with INVALID_ACL for a session with none.
 */
export const CREATOR_ALL_ACL: readonly Acl[] = [
  { perms: Perms.ALL, id: { scheme: 'auth', id: '' } },
];

/**
 * What a one-shot watch reports. `SESSION_EXPIRED` is delivered to every outstanding watch
 * when the session it was set in is gone (ZooKeeper's Java client delivers None/Expired): the
 * watch will never fire otherwise, so whoever waits on it must re-read.
 */
export const WatchEventType = {
  /** The watched znode was created (watch set by `exists`). */
  NODE_CREATED: 'NODE_CREATED',
  /** The watched znode was deleted. */
  NODE_DELETED: 'NODE_DELETED',
  /** The watched znode's data was set. */
  NODE_DATA_CHANGED: 'NODE_DATA_CHANGED',
  /** A child of the watched znode was created or deleted (watch set by `getChildren`). */
  NODE_CHILDREN_CHANGED: 'NODE_CHILDREN_CHANGED',
  /** The session the watch was set in expired; the watch will never fire otherwise, so re-read. */
  SESSION_EXPIRED: 'SESSION_EXPIRED',
} as const;
export type WatchEventType = (typeof WatchEventType)[keyof typeof WatchEventType];

/** The notification a one-shot {@link Watcher} receives. */
export interface WatchedEvent {
  /** What happened to the watched znode. */
  readonly type: WatchEventType;
  /** The watched path as the caller gave it (namespace removed). */
  readonly path: string;
}

/** A one-shot watch callback: called at most once, with the event that triggered it. */
export type Watcher = (event: WatchedEvent) => void;

/**
 * Persistent watches (ZooKeeper 3.6+ `addWatch`): they stay until removed and report every
 * change, not just the first. `PERSISTENT` watches one node (created, deleted, data changed,
 * children changed); `PERSISTENT_RECURSIVE` watches a node and every node below it (created,
 * deleted, data changed; no children-changed events).
 */
export type PersistentWatchMode = 'PERSISTENT' | 'PERSISTENT_RECURSIVE';

/**
 * One operation of a multi (transaction), with full server paths and validated input: the
 * wire package's op as it is encoded.
 */
export type WireTransactionOp = MultiOp;

export type WireTransactionResult =
  | { readonly type: 'create'; readonly path: string }
  | { readonly type: 'delete' }
  | { readonly type: 'setData'; readonly stat: Stat }
  | { readonly type: 'check' };

/** The negotiated session, as `killSession` and session-bound operations need it. */
export interface SessionCredentials {
  /** The 64-bit session id the server assigned. */
  readonly sessionId: bigint;
  /**
   * The session password the server assigned; with the id it lets another connection take over the
   * session.
   */
  readonly password: Buffer;
}
