import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IllegalStateError } from '../../src/errors/zookeeper-error-classes.js';
import { assertSupportedNzc, nzcErrorCodes, nzcProblems } from '../../src/zk/nzc-internals.js';

const noop = (): void => {};

/** A module shaped as node-zookeeper-client 1.1.3 is, where the adapter looks. */
function fakeNzc(change: { client?: object; manager?: object; module?: object } = {}) {
  const manager = {
    state: 0,
    servers: [],
    nextServerIndex: 0,
    serverAttempts: 0,
    pendingQueue: [],
    zxid: Buffer.alloc(8),
    xid: 0,
    sessionId: Buffer.alloc(8),
    sessionPassword: Buffer.alloc(16),
    sessionTimeout: 30_000,
    connectTimeout: 10_000,
    chrootPath: undefined,
    connectTimeoutHandler: null,
    watcherManager: { emit: noop },
    ...Object.fromEntries(
      [
        'findNextServer',
        'connect',
        'setState',
        'onSocketDrain',
        'onSocketConnected',
        'onSocketData',
        'onSocketError',
        'onSocketConnectTimeout',
        'onSocketClosed',
        'queue',
        'registerDataWatcher',
        'registerChildWatcher',
        'registerExistenceWatcher',
      ].map((name) => [name, noop]),
    ),
    ...change.manager,
  };
  const client = {
    ...Object.fromEntries(
      [
        'connect',
        'close',
        'on',
        'removeAllListeners',
        'getSessionId',
        'getSessionPassword',
        'getSessionTimeout',
        'addAuthInfo',
      ].map((name) => [name, noop]),
    ),
    connectionManager: manager,
    ...change.client,
  };
  const Exception = Object.assign(noop, { create: noop, OK: 0, NO_NODE: -101, NO_AUTH: -102 });
  return { createClient: () => client, Exception, ...change.module };
}

describe('assertSupportedNzc', () => {
  it('passes a module with every member the adapter uses', () => {
    assert.deepEqual(nzcProblems(fakeNzc()), []);
    assert.doesNotThrow(() => assertSupportedNzc(fakeNzc()));
  });

  it('names each missing or changed member: on the module, a client and its connection manager', () => {
    assert.deepEqual(nzcProblems(undefined), ['createClient', 'Exception.NO_NODE']);
    assert.deepEqual(nzcProblems(fakeNzc({ module: { Exception: {} } })), ['Exception.NO_NODE']);
    const changed = fakeNzc({
      client: { addAuthInfo: undefined },
      manager: { onSocketData: undefined, pendingQueue: {}, watcherManager: {} },
    });
    delete (changed.createClient().connectionManager as { chrootPath?: unknown }).chrootPath;
    assert.deepEqual(nzcProblems(changed), [
      'client.addAuthInfo',
      'ConnectionManager.pendingQueue',
      'ConnectionManager.watcherManager.emit',
      'ConnectionManager.onSocketData',
      'ConnectionManager.chrootPath',
    ]);
    const noManager = fakeNzc({ client: { connectionManager: undefined } });
    assert.deepEqual(nzcProblems(noManager), ['client.connectionManager']);
  });

  it('refuses a module that lacks any of them with an IllegalStateError that names them', () => {
    const changed = fakeNzc({ manager: { queue: 'not a function' } });
    assert.throws(
      () => assertSupportedNzc(changed),
      (error: unknown) =>
        error instanceof IllegalStateError &&
        /needs node-zookeeper-client 1\.1\.x, but the one loaded lacks ConnectionManager\.queue; install node-zookeeper-client@1\.1\.3/.test(
          error.message,
        ),
    );
  });
});

describe('nzcErrorCodes', () => {
  it("takes the numeric members of nzc's Exception", () => {
    const nzc = fakeNzc();
    assertSupportedNzc(nzc);
    assert.deepEqual(
      [...nzcErrorCodes(nzc)].sort((a, b) => a - b),
      [-102, -101, 0],
    );
  });
});
