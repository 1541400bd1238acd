import type { Acl, CreateMode, Stat } from '../zk/zookeeper-types.js';

/** Options of {@link op}.create. */
export interface TransactionCreateOptions {
  /** Default: empty. */
  readonly data?: Uint8Array | undefined;
  /** Default: 'PERSISTENT'. CONTAINER and the TTL modes too (a TTL mode needs `ttlMs`). */
  readonly mode?: CreateMode | undefined;
  /** A TTL mode's time to live, 1 to 0xFFFFFFFFFF ms; refused with any other mode. */
  readonly ttlMs?: number | undefined;
  /** Default: the client's ACL provider for the path. */
  readonly acl?: readonly Acl[] | undefined;
  /** Compress the data (see `CreateOptions.compressed`). Default: the client's `compressionEnabled`. */
  readonly compressed?: boolean | undefined;
}

/** Options of the versioned ops (delete, setData, check). */
export interface TransactionVersionOptions {
  /** The version the node must have; -1 (the default) matches any. */
  readonly version?: number | undefined;
}

/** Options of {@link op}.setData. */
export interface TransactionSetDataOptions extends TransactionVersionOptions {
  /** Compress the data (see `SetDataOptions.compressed`). Default: the client's `compressionEnabled`. */
  readonly compressed?: boolean | undefined;
}

/** One operation of {@link FrameworkClient.transaction}; build it with {@link op}. */
export type TransactionOp =
  | ({
      /** The op's kind: `'create'`. */
      readonly type: 'create';
      /** The node the op acts on, relative to the client's namespace. */
      readonly path: string;
    } & TransactionCreateOptions)
  | ({
      /** The op's kind: `'delete'`. */
      readonly type: 'delete';
      /** The node the op acts on, relative to the client's namespace. */
      readonly path: string;
    } & TransactionVersionOptions)
  | ({
      /** The op's kind: `'setData'`. */
      readonly type: 'setData';
      /** The node the op acts on, relative to the client's namespace. */
      readonly path: string;
      /** The node's new data. */
      readonly data: Uint8Array;
    } & TransactionSetDataOptions)
  | ({
      /** The op's kind: `'check'`. */
      readonly type: 'check';
      /** The node the op acts on, relative to the client's namespace. */
      readonly path: string;
    } & TransactionVersionOptions);

/**
 * What one op of a committed transaction produced (Curator's `CuratorTransactionResult`).
 * `forPath` is the path the op was given; `path` is where it acted, which differs only for a
 * sequential create (the name with its sequence number). Both have the namespace removed.
 */
export type TransactionResult =
  | {
      /** The op's kind: `'create'`. */
      readonly type: 'create';
      /** The path the op was given (namespace removed). */
      readonly forPath: string;
      /**
       * Where the op acted (namespace removed); for a sequential create, the name with its sequence
       * number.
       */
      readonly path: string;
    }
  | {
      /** The op's kind: `'delete'`. */
      readonly type: 'delete';
      /** The path the op was given (namespace removed). */
      readonly forPath: string;
      /**
       * Where the op acted (namespace removed); for a sequential create, the name with its sequence
       * number.
       */
      readonly path: string;
    }
  | {
      /** The op's kind: `'setData'`. */
      readonly type: 'setData';
      /** The path the op was given (namespace removed). */
      readonly forPath: string;
      /**
       * Where the op acted (namespace removed); for a sequential create, the name with its sequence
       * number.
       */
      readonly path: string;
      /** The node's Stat after the write. */
      readonly stat: Stat;
    }
  | {
      /** The op's kind: `'check'`. */
      readonly type: 'check';
      /** The path the op was given (namespace removed). */
      readonly forPath: string;
      /**
       * Where the op acted (namespace removed); for a sequential create, the name with its sequence
       * number.
       */
      readonly path: string;
    };

/**
 * Builders for transaction ops (Curator's `client.transactionOp()`). They only describe the op;
 * {@link FrameworkClient.transaction} validates all of them before sending any.
 *
 * ```ts
 * await client.transaction([
 *   op.check('/config', { version: 4 }),
 *   op.setData('/config', data, { version: 4 }),
 *   op.create('/config/history-', { data, mode: 'PERSISTENT_SEQUENTIAL' }),
 * ]);
 * ```
 * Protection and createParents do not exist inside a transaction: a multi is all or nothing,
 * so there is no half-done create to recover, and parents must exist (or be earlier ops).
 */
export const op = {
  /** A create of `path`; fails the transaction if the node exists or its parent does not. */
  create(path: string, options: TransactionCreateOptions = {}): TransactionOp {
    return { ...options, type: 'create', path };
  },
  /**
   * A delete of `path`; fails the transaction if the node is missing, has children or has another
   * version.
   */
  delete(path: string, options: TransactionVersionOptions = {}): TransactionOp {
    return { ...options, type: 'delete', path };
  },
  /**
   * A data write to `path`; fails the transaction if the node is missing or has another version.
   */
  setData(path: string, data: Uint8Array, options: TransactionSetDataOptions = {}): TransactionOp {
    return { ...options, type: 'setData', path, data };
  },
  /**
   * A version check on `path` that writes nothing; fails the transaction if the node is missing or
   * has another version.
   */
  check(path: string, options: TransactionVersionOptions = {}): TransactionOp {
    return { ...options, type: 'check', path };
  },
} as const;
