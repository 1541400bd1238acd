/**
 * Every request the connection sends, written once with @zkrecipes/wire: its bytes, and how
 * its reply is read. A request is made for the connect string's chroot (applied to the paths
 * it sends, removed from the paths it gets back, as nzc's own requests do) and sent by
 * NzcHandle.send, which knows nothing of the operation it carries.
 */
import {
  AddWatchMode as ADD_WATCH_MODE,
  decodeCreate,
  decodeCreate2,
  decodeGetAcl,
  decodeGetChildren2,
  decodeGetData,
  decodeInt,
  decodeMulti,
  decodeMultiRead,
  decodeStat as statFromBytes,
  decodeStrings,
  encodeAddWatch,
  encodeCreate2,
  encodeDelete,
  encodeMulti,
  encodeMultiRead,
  encodePath,
  encodePathWatch,
  encodeReconfig,
  encodeRemoveWatches,
  encodeSetAcl,
  encodeSetData,
  CreateFlag,
  OpCode,
  WatcherType,
  ZooKeeperErrorCode,
  type ReconfigRequest,
} from '@zkrecipes/wire';
import { errorFromCode } from '../errors/error-from-code.js';
import { TransactionFailedError } from '../errors/transaction-failed-error.js';
import type { ZooKeeperError } from '../errors/zookeeper-error.js';
import { CONFIG_NODE } from '../paths/ensemble-config.js';
import { missingFeature, type MissingFeature } from './missing-feature.js';
import { toWireResults } from './multi-results.js';
import { rawRequest, withChroot, withoutChroot, type NzcRawRequest } from './nzc-raw-request.js';
import type { NzcRequestError, NzcWatcher, NzcWatcherRegistry } from './nzc-types.js';
import type {
  Acl,
  CreateMode,
  PersistentWatchMode,
  Stat,
  WireTransactionOp,
  WireTransactionResult,
} from './zookeeper-types.js';

/** One request: what goes on the wire and how its reply becomes the caller's answer. */
export interface ZooKeeperRequest<T> {
  /** The operation's name: for the read-only refusal and request telemetry. */
  readonly name: string;
  readonly bytes: NzcRawRequest;
  /** The path named in its errors (the client's path, chroot not applied). */
  readonly path: string | undefined;
  /** Reads the reply body, as the reply is read (no copy); a throw rejects the request. */
  readonly decode: (body: Buffer) => T;
  /**
   * Runs as the reply is read, before anything read after it, with the server's error or
   * null (never with nzc's own local failures): registers a read's watcher where nzc would,
   * and may answer an error with a value instead (`{ value }`).
   */
  readonly onReply?:
    | ((error: NzcRequestError | null, watchers: NzcWatcherRegistry) => { value: T } | undefined)
    | undefined;
  /** What an UNIMPLEMENTED answer means the server lacks (see missing-feature.ts). */
  readonly feature?: MissingFeature | undefined;
  /** Credentials that go out on the connection right before this request (addAuth). */
  readonly credential?: { readonly scheme: string; readonly auth: Buffer } | undefined;
}

/** A watch for a read: nzc's watcher, and `set`, called as the successful reply is read. */
export interface NzcWatch {
  readonly watcher: NzcWatcher;
  readonly set: () => void;
}

/** One read of a multiRead: the node, or the typed error of that read alone. */
export type MultiReadOutcome = { data: Buffer; stat: Stat } | ZooKeeperError;

const NO_NODE: number = ZooKeeperErrorCode.NO_NODE;

/** The request a create in `mode` needs: nzc's own create knows the first four modes only. */
function createOpCode(mode: CreateMode): number {
  if (mode === 'CONTAINER') return OpCode.createContainer;
  if (mode === 'PERSISTENT_WITH_TTL' || mode === 'PERSISTENT_SEQUENTIAL_WITH_TTL') {
    return OpCode.createTTL;
  }
  return OpCode.create2;
}

const none = (): undefined => undefined;
const copy = (body: Buffer): Buffer => Buffer.from(body);

/** A create answered with the created path (chroot removed); `ttlMs` is a TTL mode's. */
export function createRequest(
  chroot: string | undefined,
  path: string,
  data: Buffer,
  acl: readonly Acl[],
  mode: CreateMode,
  ttlMs: number | undefined,
): ZooKeeperRequest<string> {
  const opCode = createOpCode(mode);
  const body = createBody(chroot, path, data, acl, mode, opCode, ttlMs);
  // The classic create (op 1) when the mode allows it: the same request, a shorter reply.
  if (opCode === OpCode.create2) {
    const bytes = rawRequest(OpCode.create, body);
    return {
      name: 'create',
      bytes,
      path,
      decode: (reply) => withoutChroot(chroot, decodeCreate(reply)),
    };
  }
  return {
    name: 'create',
    bytes: rawRequest(opCode, body),
    path,
    decode: (reply) => withoutChroot(chroot, decodeCreate2(reply).path),
    feature: mode,
  };
}

/**
 * A create answered with the path and the new node's Stat: create2 (ZooKeeper 3.5+),
 * createContainer or createTTL by `mode`.
 */
export function create2Request(
  chroot: string | undefined,
  path: string,
  data: Buffer,
  acl: readonly Acl[],
  mode: CreateMode,
  ttlMs: number | undefined,
): ZooKeeperRequest<{ path: string; stat: Stat }> {
  const opCode = createOpCode(mode);
  return {
    name: 'create2',
    bytes: rawRequest(opCode, createBody(chroot, path, data, acl, mode, opCode, ttlMs)),
    path,
    decode: (reply) => {
      const created = decodeCreate2(reply);
      return { path: withoutChroot(chroot, created.path), stat: statFromBytes(created.stat) };
    },
    feature: mode,
  };
}

function createBody(
  chroot: string | undefined,
  path: string,
  data: Buffer,
  acl: readonly Acl[],
  mode: CreateMode,
  opCode: number,
  ttlMs: number | undefined,
): Buffer {
  const ttl = opCode === OpCode.createTTL ? ttlMs : undefined;
  return encodeCreate2(withChroot(chroot, path), data, acl, CreateFlag[mode], ttl);
}

export function deleteRequest(
  chroot: string | undefined,
  path: string,
  version: number,
): ZooKeeperRequest<void> {
  const bytes = rawRequest(OpCode.delete, encodeDelete(withChroot(chroot, path), version));
  return { name: 'delete', bytes, path, decode: none };
}

export function setDataRequest(
  chroot: string | undefined,
  path: string,
  data: Buffer,
  version: number,
): ZooKeeperRequest<Stat> {
  const body = encodeSetData(withChroot(chroot, path), data, version);
  return { name: 'setData', bytes: rawRequest(OpCode.setData, body), path, decode: statFromBytes };
}

/** exists: null for a node that is not there; a watch as nzc sets it (data or existence). */
export function existsRequest(
  chroot: string | undefined,
  path: string,
  watch: NzcWatch | undefined,
): ZooKeeperRequest<Stat | null> {
  const body = encodePathWatch(withChroot(chroot, path), watch !== undefined);
  return {
    name: 'exists',
    bytes: rawRequest(OpCode.exists, body),
    path,
    decode: statFromBytes,
    onReply: (error, watchers) => {
      if (error && error.code !== NO_NODE) return undefined;
      if (watch) {
        // nzc's rule: a data watch on a node that exists, an existence watch on one that does not.
        if (error) watchers.registerExistenceWatcher(path, watch.watcher);
        else watchers.registerDataWatcher(path, watch.watcher);
        watch.set();
      }
      return error ? { value: null } : undefined;
    },
  };
}

/**
 * addAuth: the credentials, then a read behind them. The server answers in order, so the
 * read's answer says they were accepted (a refusal comes first, as AUTH_FAILED).
 */
export function addAuthRequest(
  chroot: string | undefined,
  scheme: string,
  auth: Buffer,
): ZooKeeperRequest<Stat | null> {
  return {
    ...existsRequest(chroot, '/', undefined),
    name: 'addAuth',
    credential: { scheme, auth },
  };
}

export function getDataRequest(
  chroot: string | undefined,
  path: string,
  watch: NzcWatch | undefined,
): ZooKeeperRequest<{ data: Buffer; stat: Stat }> {
  return readData('getData', withChroot(chroot, path), path, watch);
}

/**
 * Reads /zookeeper/config as the server names it: the chroot is not applied (ZooKeeper's own
 * getConfig does the same). The watch is registered under that path, which is also the path
 * its notification carries.
 */
export function getConfigRequest(
  watch: NzcWatch | undefined,
): ZooKeeperRequest<{ data: Buffer; stat: Stat }> {
  return readData('getConfig', CONFIG_NODE, CONFIG_NODE, watch);
}

function readData(
  name: string,
  serverPath: string,
  path: string,
  watch: NzcWatch | undefined,
): ZooKeeperRequest<{ data: Buffer; stat: Stat }> {
  return {
    name,
    bytes: rawRequest(OpCode.getData, encodePathWatch(serverPath, watch !== undefined)),
    path,
    decode: decodeGetData,
    onReply: watch && watchAfterSuccess(path, watch, 'registerDataWatcher'),
  };
}

export function getChildrenRequest(
  chroot: string | undefined,
  path: string,
  watch: NzcWatch | undefined,
): ZooKeeperRequest<{ children: string[]; stat: Stat }> {
  const body = encodePathWatch(withChroot(chroot, path), watch !== undefined);
  return {
    name: 'getChildren',
    bytes: rawRequest(OpCode.getChildren2, body),
    path,
    decode: decodeGetChildren2,
    onReply: watch && watchAfterSuccess(path, watch, 'registerChildWatcher'),
  };
}

function watchAfterSuccess(
  path: string,
  watch: NzcWatch,
  register: 'registerDataWatcher' | 'registerChildWatcher',
): (error: NzcRequestError | null, watchers: NzcWatcherRegistry) => undefined {
  return (error, watchers) => {
    if (error) return;
    watchers[register](path, watch.watcher);
    watch.set();
  };
}

/** ZooKeeper's reconfig (3.5+): the new configuration as /zookeeper/config then holds it. */
export function reconfigRequest(
  request: ReconfigRequest,
): ZooKeeperRequest<{ data: Buffer; stat: Stat }> {
  const bytes = rawRequest(OpCode.reconfig, encodeReconfig(request));
  return { name: 'reconfig', bytes, path: CONFIG_NODE, decode: decodeGetData };
}

/** The server catches up with the leader as of this request before it answers. */
export function syncRequest(chroot: string | undefined, path: string): ZooKeeperRequest<void> {
  const bytes = rawRequest(OpCode.sync, encodePath(withChroot(chroot, path)));
  return { name: 'sync', bytes, path, decode: none };
}

/**
 * This session's ephemerals whose path starts with `prefix` (3.6+): chroot applied to the
 * prefix, removed from the answers, and answers outside the chroot left out.
 */
export function getEphemeralsRequest(
  chroot: string | undefined,
  prefix: string,
): ZooKeeperRequest<string[]> {
  return {
    name: 'getEphemerals',
    bytes: rawRequest(OpCode.getEphemerals, encodePath(withChroot(chroot, prefix))),
    path: prefix,
    decode: (reply) =>
      decodeStrings(reply)
        .filter((found) => !chroot || found === chroot || found.startsWith(`${chroot}/`))
        .map((found) => withoutChroot(chroot, found)),
    feature: 'getEphemerals',
  };
}

/** How many nodes are below `path`, at any depth (3.6+). */
export function getAllChildrenNumberRequest(
  chroot: string | undefined,
  path: string,
): ZooKeeperRequest<number> {
  return {
    name: 'getAllChildrenNumber',
    bytes: rawRequest(OpCode.getAllChildrenNumber, encodePath(withChroot(chroot, path))),
    path,
    decode: decodeInt,
    feature: 'getAllChildrenNumber',
  };
}

export function getAclRequest(
  chroot: string | undefined,
  path: string,
): ZooKeeperRequest<{ acl: Acl[]; stat: Stat }> {
  const bytes = rawRequest(OpCode.getACL, encodePath(withChroot(chroot, path)));
  return { name: 'getAcl', bytes, path, decode: decodeGetAcl };
}

export function setAclRequest(
  chroot: string | undefined,
  path: string,
  acl: readonly Acl[],
  version: number,
): ZooKeeperRequest<Stat> {
  const bytes = rawRequest(OpCode.setACL, encodeSetAcl(withChroot(chroot, path), acl, version));
  return { name: 'setAcl', bytes, path, decode: statFromBytes };
}

/** A persistent watch (3.6+); the server keeps it until removed. */
export function addWatchRequest(
  chroot: string | undefined,
  path: string,
  mode: PersistentWatchMode,
): ZooKeeperRequest<void> {
  const body = encodeAddWatch(withChroot(chroot, path), ADD_WATCH_MODE[mode]);
  const bytes = rawRequest(OpCode.addWatch, body);
  return { name: 'addWatch', bytes, path, decode: none };
}

/**
 * Removes every watch the connection holds on `path` (type Any): persistent and one-shot
 * alike, since the server keeps watches per connection, not per watcher.
 */
export function removeWatchesRequest(
  chroot: string | undefined,
  path: string,
): ZooKeeperRequest<void> {
  const body = encodeRemoveWatches(withChroot(chroot, path), WatcherType.ANY);
  const bytes = rawRequest(OpCode.removeWatches, body);
  return { name: 'removeWatches', bytes, path, decode: none };
}

/** Several unwatched reads in one request (3.6+); each succeeds or fails on its own. */
export function multiReadRequest(
  chroot: string | undefined,
  paths: readonly string[],
): ZooKeeperRequest<MultiReadOutcome[]> {
  const body = encodeMultiRead(paths.map((path) => withChroot(chroot, path)));
  return {
    name: 'multiRead',
    bytes: rawRequest(OpCode.multiRead, body),
    path: paths[0],
    decode: (reply) =>
      decodeMultiRead(copy(reply), paths.length).map((result, i) =>
        result.ok
          ? { data: result.data, stat: statFromBytes(result.stat) }
          : errorFromCode(result.code, { path: paths[i] }),
      ),
  };
}

/**
 * A multi in our own encoding for every op kind (nzc's Transaction rewrites version 0 to -1,
 * a conditional op made unconditional). A failed op rejects with TransactionFailedError; a
 * container or TTL create the server refuses names what it lacks.
 */
export function multiRequest(
  chroot: string | undefined,
  ops: readonly WireTransactionOp[],
): ZooKeeperRequest<WireTransactionResult[]> {
  const body = encodeMulti(ops, (path) => withChroot(chroot, path));
  const extended = ops.find((o) => o.type === 'create' && createOpCode(o.mode) !== OpCode.create2);
  return {
    name: 'multi',
    bytes: rawRequest(OpCode.multi, body),
    path: ops[0]?.path,
    decode: (reply) => {
      const outcome = toWireResults(decodeMulti(copy(reply)), ops, (path) =>
        withoutChroot(chroot, path),
      );
      if (!('failed' in outcome)) return outcome.results;
      const failed = TransactionFailedError.fromResults(outcome.failed, ops);
      const op = ops[failed.failedOpIndex];
      if (failed.code !== 'UNIMPLEMENTED' || op?.type !== 'create') throw failed;
      throw missingFeature(errorFromCode(-6, { path: op.path, cause: failed }), op.mode);
    },
    feature: extended?.type === 'create' ? extended.mode : undefined,
  };
}
