import type { ReconfigRequest } from '@zkrecipes/wire';
import type { PersistentWatchListener } from './persistent-watch-registry.js';
import type {
  Acl,
  CreateMode,
  PersistentWatchMode,
  Stat,
  Watcher,
  WireTransactionOp,
  WireTransactionResult,
} from './zookeeper-types.js';

/**
 * One attempt of each ZooKeeper operation, on full server paths (namespace already applied)
 * and validated input. The connection implements it: operations wait (parked) while the
 * client is not connected, each has a deadline, and failures are typed ZooKeeperErrors.
 * Retrying is the caller's job (the client's retry loop), never this layer's.
 */
export interface ZooKeeperOperations {
  /** `ttlMs` is the time to live of a TTL mode (required there, ignored for any other mode). */
  create(
    path: string,
    data: Buffer,
    acl: readonly Acl[],
    mode: CreateMode,
    signal?: AbortSignal,
    ttlMs?: number,
  ): Promise<string>;
  /** A create whose reply carries the new node's Stat (create2, ZooKeeper 3.5+). */
  create2(
    path: string,
    data: Buffer,
    acl: readonly Acl[],
    mode: CreateMode,
    signal?: AbortSignal,
    ttlMs?: number,
  ): Promise<{ path: string; stat: Stat }>;
  /** ZooKeeper's sync: the connected server catches up with the leader before it answers. */
  sync(path: string, signal?: AbortSignal): Promise<void>;
  /** This session's ephemeral nodes whose path starts with `prefix` (ZooKeeper 3.6+). */
  getEphemerals(prefix: string, signal?: AbortSignal): Promise<string[]>;
  /** The number of nodes below `path`, at any depth (ZooKeeper 3.6+). */
  getAllChildrenNumber(path: string, signal?: AbortSignal): Promise<number>;
  delete(path: string, version: number, signal?: AbortSignal): Promise<void>;
  /**
   * Resolves `null` when the node does not exist (the watch then waits for its creation).
   * The reads' `signal` withdraws their watcher when it aborts (the server watch stays).
   * Every `signal` also takes a request still waiting for a connection out of line (a request
   * given up on is never sent later) and ends the wait for a request already sent; the close
   * ends every wait.
   */
  exists(path: string, watcher?: Watcher, signal?: AbortSignal): Promise<Stat | null>;
  getData(
    path: string,
    watcher?: Watcher,
    signal?: AbortSignal,
  ): Promise<{ data: Buffer; stat: Stat }>;
  setData(path: string, data: Buffer, version: number, signal?: AbortSignal): Promise<Stat>;
  /** Reads /zookeeper/config on the server's root, whatever the connect string's chroot. */
  getConfig(watcher?: Watcher, signal?: AbortSignal): Promise<{ data: Buffer; stat: Stat }>;
  /** ZooKeeper's reconfig (3.5+): resolves the new configuration as /zookeeper/config holds it. */
  reconfig(request: ReconfigRequest, signal?: AbortSignal): Promise<{ data: Buffer; stat: Stat }>;
  getChildren(
    path: string,
    watcher?: Watcher,
    signal?: AbortSignal,
  ): Promise<{ children: string[]; stat: Stat }>;
  getAcl(path: string, signal?: AbortSignal): Promise<{ acl: Acl[]; stat: Stat }>;
  setAcl(path: string, acl: readonly Acl[], version: number, signal?: AbortSignal): Promise<Stat>;
  /** A multi: all or nothing. A failure rejects with a TransactionFailedError. */
  multi(ops: readonly WireTransactionOp[], signal?: AbortSignal): Promise<WireTransactionResult[]>;
  /** Adds a persistent watch on the server (idempotent: the server keeps one per path and mode). */
  addWatch(path: string, mode: PersistentWatchMode, signal?: AbortSignal): Promise<void>;
  /** Removes the server's watches on `path`, unless a one-shot watch there must keep firing. */
  removeWatches(path: string, signal?: AbortSignal): Promise<void>;
  /**
   * Registers a listener for a persistent watch's events, across reconnects and new sessions
   * (the connection re-adds the server watch). The returned function unregisters it and says
   * whether no listener of either mode is left on the path (then remove the server watch).
   */
  listenPersistently(
    path: string,
    mode: PersistentWatchMode,
    listener: PersistentWatchListener,
  ): () => boolean;
}
