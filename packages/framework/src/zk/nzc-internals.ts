/**
 * The adapter overrides and reads a few of node-zookeeper-client's internals on its own client
 * instances (the connection manager's socket handlers and server choice, packet and pending
 * queues, watcher manager), written against 1.1.3. A release that moved any of them would
 * first show as a silent misbehaviour under a fault, so they are checked by shape before the
 * first client is made, and a missing one fails with the names of what is missing. The shape
 * is checked rather than the version: reading nzc's package.json takes a deep path, which a
 * bundler cannot follow, and the members are what the adapter depends on.
 */
import { IllegalStateError } from '../errors/zookeeper-error-classes.js';
import type { NzcClientOptions, NzcModule } from './nzc-types.js';

type Check = (value: unknown) => boolean;

const isFunction: Check = (value) => typeof value === 'function';
const isObject: Check = (value) => typeof value === 'object' && value !== null;
const isArray: Check = (value) => Array.isArray(value);

const MODULE_MEMBERS: Readonly<Record<string, Check>> = {
  createClient: isFunction,
  // Its error codes tell the reply tap which ones nzc's own handler can take.
  'Exception.NO_NODE': (value) => value === -101,
};

const CLIENT_MEMBERS: Readonly<Record<string, Check>> = {
  connect: isFunction,
  close: isFunction,
  on: isFunction,
  removeAllListeners: isFunction,
  getSessionId: isFunction,
  getSessionPassword: isFunction,
  getSessionTimeout: isFunction,
  addAuthInfo: isFunction,
  connectionManager: isObject,
};

/** Present on a connection manager that has not connected yet (its socket is not). */
const MANAGER_MEMBERS: Readonly<Record<string, Check>> = {
  state: (value) => typeof value === 'number',
  servers: isArray,
  // Reset when the adapter replaces `servers` (setServers).
  nextServerIndex: (value) => typeof value === 'number',
  serverAttempts: (value) => typeof value === 'number',
  pendingQueue: isArray,
  zxid: (value) => Buffer.isBuffer(value),
  xid: (value) => typeof value === 'number',
  // Read by the read-only handshake (nzc-read-only.ts) and the move to a read-write server.
  sessionId: (value) => Buffer.isBuffer(value),
  sessionPassword: (value) => Buffer.isBuffer(value),
  sessionTimeout: (value) => typeof value === 'number',
  watcherManager: isObject,
  'watcherManager.emit': isFunction,
  connectTimeout: (value) => typeof value === 'number',
  findNextServer: isFunction,
  // Replaced per instance for TLS (nzc-tls-socket.ts), which calls the next three itself.
  connect: isFunction,
  setState: isFunction,
  onSocketDrain: isFunction,
  onSocketConnected: isFunction,
  onSocketData: isFunction,
  onSocketError: isFunction,
  onSocketConnectTimeout: isFunction,
  onSocketClosed: isFunction,
  queue: isFunction,
  registerDataWatcher: isFunction,
  registerChildWatcher: isFunction,
  registerExistenceWatcher: isFunction,
};
/** Members that are there with no value yet (nzc sets them to null or undefined). */
const MANAGER_KEYS = ['chrootPath', 'connectTimeoutHandler'];

/** A client object only: nzc opens no socket and starts no timer until `connect()`. */
const PROBE_CONNECT_STRING = '127.0.0.1:2181';
const PROBE_OPTIONS: NzcClientOptions = { sessionTimeout: 30_000, spinDelay: 1_000, retries: 0 };

function memberAt(object: unknown, path: string): unknown {
  let value = object;
  for (const key of path.split('.')) {
    value =
      isObject(value) || isFunction(value) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

function problems(object: unknown, members: Readonly<Record<string, Check>>, prefix: string) {
  return Object.entries(members)
    .filter(([path, check]) => !check(memberAt(object, path)))
    .map(([path]) => `${prefix}${path}`);
}

/**
 * What `loaded` (the node-zookeeper-client module) lacks of what the adapter uses, as member
 * names; empty when it has all of it. Makes one client object to look at its members.
 */
export function nzcProblems(loaded: unknown): string[] {
  const missing = problems(loaded, MODULE_MEMBERS, '');
  if (missing.length > 0) return missing;
  const client = (loaded as NzcModule).createClient(PROBE_CONNECT_STRING, PROBE_OPTIONS);
  missing.push(...problems(client, CLIENT_MEMBERS, 'client.'));
  const manager = (client as { connectionManager?: unknown }).connectionManager;
  if (!isObject(manager)) return missing;
  missing.push(...problems(manager, MANAGER_MEMBERS, 'ConnectionManager.'));
  for (const key of MANAGER_KEYS) {
    if (!(key in (manager as object))) missing.push(`ConnectionManager.${key}`);
  }
  return missing;
}

/**
 * Throws an IllegalStateError naming what is missing unless `loaded` has every member of
 * node-zookeeper-client 1.1.x that the adapter uses.
 */
export function assertSupportedNzc(loaded: unknown): asserts loaded is NzcModule {
  const missing = nzcProblems(loaded);
  if (missing.length === 0) return;
  throw new IllegalStateError(
    `@zkrecipes/framework needs node-zookeeper-client 1.1.x, but the one loaded lacks ` +
      `${missing.join(', ')}; install node-zookeeper-client@1.1.3`,
  );
}

/** The error codes nzc's Exception knows (its numeric members). */
export function nzcErrorCodes(nzc: NzcModule): ReadonlySet<number> {
  return new Set(
    Object.values(nzc.Exception).filter((value): value is number => typeof value === 'number'),
  );
}
