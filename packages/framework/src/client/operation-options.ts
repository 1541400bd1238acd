// The option objects of FrameworkClient's operations, with their defaults. Kept apart from the
// class so the class reads as behaviour, and so recipes can name these types.
import type { Acl, CreateMode, Stat, Watcher } from '../zk/zookeeper-types.js';

/** The signal every operation takes. */
export interface SignalOptions {
  /**
   * Aborting rejects the operation with `signal.reason` at once: while it waits for a
   * connection (it is then never sent), between retries, and while a request is in flight (its
   * outcome is then unknown, as after a lost connection: a protected create's node and a
   * guaranteed delete are then taken care of in the background). Default: none.
   */
  readonly signal?: AbortSignal | undefined;
}

/** The `idempotent` option of the writes. */
export interface IdempotentOptions {
  /**
   * Answer exactly even when the reply is lost (Curator 5.2's `idempotent()`, made exact): the
   * write travels in one transaction with a witness node of this session, so a retry after a
   * lost reply learns from the server whether the first attempt was applied, and the call
   * resolves as that attempt would have (a versioned setData resolves, not BAD_VERSION, when its
   * first attempt wrote). Costs one more op in the same request, and a witness node per write
   * in flight (see `writeWitnessPath`). Only a session lost with the write in flight leaves the
   * outcome unknown (OutcomeUnknownError). Without it, a retry's conflict after a lost reply
   * rejects with OutcomeUnknownError instead of being taken at face value. Default: false.
   * See docs/framework/operations.md, "when a reply is lost".
   */
  readonly idempotent?: boolean | undefined;
}

/** The `compressed` option of create, setData and getData. */
export interface CompressedOptions {
  /**
   * Compress the data with the client's `compressionProvider` before writing it, or decompress
   * it after reading (Curator's `compressed()` and `decompressed()`); `false` does neither on a
   * client with `compressionEnabled` (Curator's `uncompressed()`). The data size limit applies
   * to the compressed bytes. A read that cannot decompress rejects with DataInconsistencyError.
   * Default: the client's `compressionEnabled` (false unless set). See
   * docs/framework/operations.md, "Compression".
   */
  readonly compressed?: boolean | undefined;
}

/** Options of {@link FrameworkClient.create}. */
export interface CreateOptions extends SignalOptions, IdempotentOptions, CompressedOptions {
  /** The node's data. Default: empty. At most MAX_NODE_DATA_BYTES. */
  readonly data?: Uint8Array | undefined;
  /**
   * Default: 'PERSISTENT'. CONTAINER needs ZooKeeper 3.5.1+; the TTL modes need `ttlMs` and a
   * server started with `zookeeper.extendedTypesEnabled=true` (else an UnimplementedError
   * that says so).
   */
  readonly mode?: CreateMode | undefined;
  /**
   * The time to live of a PERSISTENT_WITH_TTL or PERSISTENT_SEQUENTIAL_WITH_TTL node, from 1 to
   * 0xFFFFFFFFFF ms: the server deletes the node once it has no children and its data was not
   * set for this long. Required with those modes, refused with any other. Default: none.
   */
  readonly ttlMs?: number | undefined;
  /**
   * Create missing parents with empty data and the ACL provider's ACL: as CONTAINER nodes
   * (Curator's `creatingParentContainersIfNeeded`), unless the client was made with
   * `useContainerParents: false` or this call says `containerParents: false`, then as
   * PERSISTENT nodes (Curator's `creatingParentsIfNeeded`). Default: false.
   */
  readonly createParents?: boolean | undefined;
  /**
   * With createParents: make the missing parents CONTAINERs (true) or PERSISTENT (false).
   * Default: the client's `useContainerParents` (true unless set otherwise).
   */
  readonly containerParents?: boolean | undefined;
  /**
   * Curator's protected mode (`withProtection`): the node name gets a `_c_<uuid>-` prefix so a
   * create whose reply was lost can find its node instead of making a second one. Default: false.
   */
  readonly protection?: boolean | undefined;
  /** The node's ACL. Default: the client's ACL provider for the path. */
  readonly acl?: readonly Acl[] | undefined;
  /**
   * When the node exists, set its data instead of failing (Curator's `orSetData()`); with
   * `{ version }`, only if the node has that version (Curator's `orSetData(version)`; -1: any),
   * else a BadVersionError. Default: false.
   */
  readonly orSetData?:
    | boolean
    | {
        /** The version the existing node must have for its data to be set; -1 for any. */
        readonly version: number;
      }
    | undefined;
  /**
   * Also resolve the node's Stat (`create2`, ZooKeeper 3.5+; Curator's `storingStatIn`): its
   * czxid, for example, as a lock's fencing token. Default: false (just the path).
   */
  readonly stat?: boolean | undefined;
}

/** What `create(path, { stat: true })` resolves to. */
export interface CreatedWithStat {
  /** The path actually created (sequence number and protection prefix included). */
  readonly path: string;
  /** The new node's metadata (with orSetData on an existing node: after the data was set). */
  readonly stat: Stat;
}

/** Options of {@link FrameworkClient.delete}. */
export interface DeleteOptions extends SignalOptions, IdempotentOptions {
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

/** Options of getAcl, sync and the other operations with no options of their own. */
export type OperationOptions = SignalOptions;

/** Options of {@link FrameworkClient.transaction}. */
export interface TransactionOptions extends SignalOptions, IdempotentOptions {}

/** The watch option of the reads. */
export interface WatchOptions {
  /**
   * A one-shot watcher, called at most once, with the event's path in this client's namespace.
   * Default: none.
   */
  readonly watch?: Watcher | undefined;
  /**
   * Aborting rejects the read with `signal.reason` (see {@link SignalOptions}) and makes the
   * watcher a no-op from then on (the server-side watch stays until it fires or the session
   * ends). Default: none.
   */
  readonly signal?: AbortSignal | undefined;
}

/** Options of {@link FrameworkClient.exists}. */
export interface ExistsOptions extends WatchOptions {
  /**
   * Create the missing parents of the path first, then answer (Curator's
   * `checkExists().creatingParentContainersIfNeeded()`): as CONTAINER nodes unless the client
   * was made with `useContainerParents: false` or `containerParents` is false, then PERSISTENT
   * (Curator's `creatingParentsIfNeeded()`). Made as `create`'s `createParents` makes them.
   * Default: false.
   */
  readonly createParents?: boolean | undefined;
  /** With createParents: CONTAINER (true) or PERSISTENT (false) parents. Default: the client's. */
  readonly containerParents?: boolean | undefined;
}

/** Options of {@link FrameworkClient.setData}. */
export interface SetDataOptions extends VersionOptions, IdempotentOptions, CompressedOptions {}

/** Options of {@link FrameworkClient.getData}. */
export interface GetDataOptions extends WatchOptions, CompressedOptions {}

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
export interface VersionOptions extends SignalOptions {
  /** The version the node must have; -1 (the default) matches any. */
  readonly version?: number | undefined;
}

/**
 * Options of {@link FrameworkClient.start}. Given an options object, start() also waits for the
 * first connection; if none comes, it rejects and the client is closed.
 */
export interface StartOptions {
  /** Wait at most this long for the first connection. Default: the client's connectionTimeoutMs. */
  readonly timeoutMs?: number | undefined;
  /** Aborting ends the wait with `signal.reason` (and closes the client). Default: none. */
  readonly signal?: AbortSignal | undefined;
}

/** Options of {@link FrameworkClient.blockUntilConnected}. */
export interface BlockUntilConnectedOptions {
  /** Give up (resolve false) after this long. Default: wait until connected or closed. */
  readonly timeoutMs?: number | undefined;
  /** Aborting rejects the wait with `signal.reason` at once. Default: none. */
  readonly signal?: AbortSignal | undefined;
}
