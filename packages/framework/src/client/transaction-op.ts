import type { Acl, CreateMode, Stat } from '../zk/zookeeper-types.js';

/** Options of {@link op}.create. */
export interface TransactionCreateOptions {
  /** Default: empty. */
  readonly data?: Uint8Array | undefined;
  /** Default: 'PERSISTENT'. */
  readonly mode?: CreateMode | undefined;
  /** Default: the client's ACL provider for the path. */
  readonly acl?: readonly Acl[] | undefined;
}

/** Options of the versioned ops (delete, setData, check). */
export interface TransactionVersionOptions {
  /** The version the node must have; -1 (the default) matches any. */
  readonly version?: number | undefined;
}

/** One operation of {@link FrameworkClient.transaction}; build it with {@link op}. */
export type TransactionOp =
  | ({ readonly type: 'create'; readonly path: string } & TransactionCreateOptions)
  | ({ readonly type: 'delete'; readonly path: string } & TransactionVersionOptions)
  | ({
      readonly type: 'setData';
      readonly path: string;
      readonly data: Uint8Array;
    } & TransactionVersionOptions)
  | ({ readonly type: 'check'; readonly path: string } & TransactionVersionOptions);

/**
 * What one op of a committed transaction produced (Curator's `CuratorTransactionResult`).
 * `forPath` is the path the op was given; `path` is where it acted, which differs only for a
 * sequential create (the name with its sequence number). Both have the namespace removed.
 */
export type TransactionResult =
  | { readonly type: 'create'; readonly forPath: string; readonly path: string }
  | { readonly type: 'delete'; readonly forPath: string; readonly path: string }
  | {
      readonly type: 'setData';
      readonly forPath: string;
      readonly path: string;
      readonly stat: Stat;
    }
  | { readonly type: 'check'; readonly forPath: string; readonly path: string };

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
  create(path: string, options: TransactionCreateOptions = {}): TransactionOp {
    return { ...options, type: 'create', path };
  },
  delete(path: string, options: TransactionVersionOptions = {}): TransactionOp {
    return { ...options, type: 'delete', path };
  },
  setData(path: string, data: Uint8Array, options: TransactionVersionOptions = {}): TransactionOp {
    return { ...options, type: 'setData', path, data };
  },
  check(path: string, options: TransactionVersionOptions = {}): TransactionOp {
    return { ...options, type: 'check', path };
  },
} as const;
