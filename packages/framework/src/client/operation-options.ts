// The option objects of FrameworkClient's operations, with their defaults. Kept apart from the
// class so the class reads as behaviour, and so recipes can name these types.
import type { Acl, CreateMode, Stat, Watcher } from '../zk/zookeeper-types.js';

/** Options of {@link FrameworkClient.create}. */
export interface CreateOptions {
  /** The node's data. Default: empty. At most MAX_NODE_DATA_BYTES. */
  readonly data?: Uint8Array | undefined;
  /** Default: 'PERSISTENT'. CONTAINER and TTL modes are rejected (the wire client lacks them). */
  readonly mode?: CreateMode | undefined;
  /**
   * Create missing parents as PERSISTENT nodes with empty data and the ACL provider's ACL
   * (Curator's `creatingParentsIfNeeded`). Default: false.
   */
  readonly createParents?: boolean | undefined;
  /**
   * Curator's protected mode (`withProtection`): the node name gets a `_c_<uuid>-` prefix so a
   * create whose reply was lost can find its node instead of making a second one. Default: false.
   */
  readonly protection?: boolean | undefined;
  /** The node's ACL. Default: the client's ACL provider for the path. */
  readonly acl?: readonly Acl[] | undefined;
  /** When the node exists, set its data instead of failing (Curator's `orSetData`). Default: false. */
  readonly orSetData?: boolean | undefined;
}

/** Options of {@link FrameworkClient.delete}. */
export interface DeleteOptions {
  /** The version the node must have; -1 (the default) matches any. */
  readonly version?: number | undefined;
  /**
   * When the delete fails with a retryable error after the retry policy gave up, keep
   * deleting in the background until the node is gone or the client closes (Curator's
   * `guaranteed()`). The caller still gets the error. Default: false.
   */
  readonly guaranteed?: boolean | undefined;
  /** Delete the node's children (the whole subtree) first. Default: false. */
  readonly deleteChildren?: boolean | undefined;
  /** A missing node is not an error (Curator's `quietly()`). Default: false. */
  readonly quietly?: boolean | undefined;
}

/** The watch option of the reads. */
export interface WatchOptions {
  /**
   * A one-shot watcher, called at most once, with the event's path in this client's namespace.
   * Default: none.
   */
  readonly watch?: Watcher | undefined;
  /**
   * Aborting makes the watcher a no-op from then on (the server-side watch stays until it
   * fires or the session ends; the wire client cannot remove it). Default: none.
   */
  readonly signal?: AbortSignal | undefined;
}

/** Options of {@link FrameworkClient.getChildren}. */
export interface GetChildrenOptions extends WatchOptions {
  /** Also return the parent's Stat. Default: false (just the names). */
  readonly stat?: boolean | undefined;
}

/** What `getChildren(path, { stat: true })` resolves to. */
export interface ChildrenWithStat {
  /** The child names (unsorted, as the server returns them). */
  readonly children: string[];
  /** The parent node's metadata, read in the same request as the children. */
  readonly stat: Stat;
}

/** Options of the conditional writes: setData, setAcl. */
export interface VersionOptions {
  /** The version the node must have; -1 (the default) matches any. */
  readonly version?: number | undefined;
}

/** Options of {@link FrameworkClient.blockUntilConnected}. */
export interface BlockUntilConnectedOptions {
  /** Give up (resolve false) after this long. Default: wait until connected or closed. */
  readonly timeoutMs?: number | undefined;
}
