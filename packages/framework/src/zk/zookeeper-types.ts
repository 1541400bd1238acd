/**
 * Wire-level types shared by the adapter, the connection and the client layer. These are our
 * own declarations: node-zookeeper-client's published typings are wrong in places.
 */

/** A znode's metadata. Zxids and the session id are 64-bit, so they are bigints. */
export interface Stat {
  readonly czxid: bigint;
  readonly mzxid: bigint;
  readonly pzxid: bigint;
  /** Milliseconds since the epoch. */
  readonly ctime: number;
  readonly mtime: number;
  readonly version: number;
  readonly cversion: number;
  readonly aversion: number;
  /** The owning session id for an ephemeral node, `0n` otherwise. */
  readonly ephemeralOwner: bigint;
  readonly dataLength: number;
  readonly numChildren: number;
}

/** ZooKeeper's create modes. CONTAINER and TTL modes are not supported by the wire client. */
export const CreateMode = {
  PERSISTENT: 'PERSISTENT',
  EPHEMERAL: 'EPHEMERAL',
  PERSISTENT_SEQUENTIAL: 'PERSISTENT_SEQUENTIAL',
  EPHEMERAL_SEQUENTIAL: 'EPHEMERAL_SEQUENTIAL',
} as const;
export type CreateMode = (typeof CreateMode)[keyof typeof CreateMode];

/** ZooKeeper permission bits. */
export const Perms = {
  READ: 1,
  WRITE: 2,
  CREATE: 4,
  DELETE: 8,
  ADMIN: 16,
  ALL: 31,
} as const;

export interface Acl {
  /** A bit set of {@link Perms}. */
  readonly perms: number;
  readonly id: { readonly scheme: string; readonly id: string };
}

/** `world:anyone` with all permissions: ZooKeeper's OPEN_ACL_UNSAFE. */
export const OPEN_ACL_UNSAFE: readonly Acl[] = [
  { perms: Perms.ALL, id: { scheme: 'world', id: 'anyone' } },
];

/**
 * What a one-shot watch reports. `SESSION_EXPIRED` is delivered to every outstanding watch
 * when the session it was set in is gone (ZooKeeper's Java client delivers None/Expired): the
 * watch will never fire otherwise, so whoever waits on it must re-read.
 */
export const WatchEventType = {
  NODE_CREATED: 'NODE_CREATED',
  NODE_DELETED: 'NODE_DELETED',
  NODE_DATA_CHANGED: 'NODE_DATA_CHANGED',
  NODE_CHILDREN_CHANGED: 'NODE_CHILDREN_CHANGED',
  SESSION_EXPIRED: 'SESSION_EXPIRED',
} as const;
export type WatchEventType = (typeof WatchEventType)[keyof typeof WatchEventType];

export interface WatchedEvent {
  readonly type: WatchEventType;
  /** The watched path as the caller gave it (namespace removed). */
  readonly path: string;
}

export type Watcher = (event: WatchedEvent) => void;

/** One operation of a multi (transaction), with full server paths and validated input. */
export type WireTransactionOp =
  | {
      readonly type: 'create';
      readonly path: string;
      readonly data: Buffer;
      readonly acl: readonly Acl[];
      readonly mode: CreateMode;
    }
  | { readonly type: 'delete'; readonly path: string; readonly version: number }
  | {
      readonly type: 'setData';
      readonly path: string;
      readonly data: Buffer;
      readonly version: number;
    }
  | { readonly type: 'check'; readonly path: string; readonly version: number };

export type WireTransactionResult =
  | { readonly type: 'create'; readonly path: string }
  | { readonly type: 'delete' }
  | { readonly type: 'setData'; readonly stat: Stat }
  | { readonly type: 'check' };

/** The negotiated session, as `killSession` and session-bound operations need it. */
export interface SessionCredentials {
  readonly sessionId: bigint;
  readonly password: Buffer;
}
