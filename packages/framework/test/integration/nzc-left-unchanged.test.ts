import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
// eslint-disable-next-line no-restricted-imports -- this test is the other user of nzc in the process, which the framework must leave alone
import loadedNzc from 'node-zookeeper-client';
import { TestingServer, timing, uniquePath } from '@zkrecipes/testing';
import type { FrameworkClient } from '../../src/client/framework-client.js';

/** nzc 1.1.3 as its own users call it (the parts this test uses). */
interface StockException extends Error {
  getCode(): number;
}
type Callback<T> = (error: StockException | null, result: T) => void;
type StockAcl = { permission: number; id: { scheme: string; id: string } };
interface StockClient {
  connectionManager: object;
  connect(): void;
  close(): void;
  once(event: 'connected', listener: () => void): void;
  create(path: string, data: Buffer, acls: unknown[], mode: number, cb: Callback<string>): void;
  getData(path: string, cb: Callback<Buffer>): void;
  getACL(path: string, cb: Callback<StockAcl[]>): void;
}
interface StockNzc {
  createClient(connectString: string, options?: object): StockClient;
  Exception: { new (...args: never[]): StockException; create: (code: number) => StockException };
  ACL: { OPEN_ACL_UNSAFE: unknown[] };
  CreateMode: { PERSISTENT: number };
}
const nzc = loadedNzc as StockNzc;

/** Every own property of nzc's shared objects, as they are before the framework is loaded. */
function sharedState(): Map<string, unknown> {
  const probe = nzc.createClient('127.0.0.1:1');
  const manager = probe.connectionManager as { watcherManager: object };
  const shared: Record<string, object> = {
    module: nzc,
    Exception: nzc.Exception,
    'Exception.prototype': nzc.Exception.prototype as object,
    'Client.prototype': Object.getPrototypeOf(probe) as object,
    'ConnectionManager.prototype': Object.getPrototypeOf(manager) as object,
    'WatcherManager.prototype': Object.getPrototypeOf(manager.watcherManager) as object,
  };
  const state = new Map<string, unknown>();
  for (const [name, object] of Object.entries(shared)) {
    for (const key of Reflect.ownKeys(object)) {
      state.set(`${name}.${String(key)}`, Object.getOwnPropertyDescriptor(object, key)?.value);
    }
  }
  return state;
}

const untouched = sharedState();
const stockCreate = nzc.Exception.create;

/** nzc's callback API as a promise. */
function call<T>(start: (cb: Callback<T>) => void): Promise<T> {
  return new Promise((resolve, reject) =>
    start((error, result) => (error ? reject(error) : resolve(result))),
  );
}

/*
 * The framework changes nzc only on its own client instances: another user of nzc in the same
 * process (here, this test) must see nzc's modules and prototypes as they were, nzc's own
 * exceptions, and a stock client that works.
 */
describe('node-zookeeper-client for another user in the same process', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start({ jvmFlags: ['-Dzookeeper.enforceQuota=true'] });
    // Loaded only now, after nzc's shared objects were noted above.
    const framework = await import('../../src/index.js');
    client = framework.createFramework({
      connectString: server.connectString,
      sessionTimeoutMs: 10_000,
      logger: framework.silentLogger,
    });
    await client.start();
    await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it("a framework client's requests and errors (one with a code nzc does not know) leave nzc's shared objects as they were: Exception.create still throws on -118", async () => {
    const path = await client.create(uniquePath('neighbour'));
    const { acl, stat } = await client.getAcl(path);
    await client.setAcl(path, acl, { version: stat.aversion });
    await assert.rejects(client.setAcl(path, acl, { version: 0 }), { code: 'BAD_VERSION' });
    await assert.rejects(client.getAcl(`${path}/missing`), { code: 'NO_NODE' });
    // An enforced count quota: the server answers QUOTA_EXCEEDED (-125), unknown to nzc.
    await client.create(`/zookeeper/quota${path}/zookeeper_limits`, {
      createParents: true,
      data: Buffer.from('count=-1,bytes=-1,countHardLimit=2,byteHardLimit=-1'),
    });
    await client.create(`/zookeeper/quota${path}/zookeeper_stats`, {
      data: Buffer.from('count=1,bytes=0'),
    });
    await client.create(`${path}/first`);
    await assert.rejects(client.create(`${path}/second`), { code: 'QUOTA_EXCEEDED', zkCode: -125 });

    assert.deepEqual(sharedState(), untouched);
    assert.equal(nzc.Exception.create, stockCreate);
    assert.throws(() => nzc.Exception.create(-118), /Unknown code: -118/);
    const noNode = nzc.Exception.create(-101);
    assert.ok(noNode instanceof nzc.Exception);
    assert.equal(noNode.getCode(), -101);
    assert.equal(typeof noNode.stack, 'string');
  });

  it('a stock nzc client in the same process connects and does create, getData and getACL as nzc does', async () => {
    const stock = nzc.createClient(server.connectString, { sessionTimeout: 10_000 });
    const connected = new Promise<void>((resolve) => stock.once('connected', resolve));
    stock.connect();
    try {
      await connected;
      const path = uniquePath('stock');
      const { OPEN_ACL_UNSAFE } = nzc.ACL;
      const mode = nzc.CreateMode.PERSISTENT;
      const data = Buffer.from('stock data');
      assert.equal(
        await call<string>((cb) => stock.create(path, data, OPEN_ACL_UNSAFE, mode, cb)),
        path,
      );
      assert.deepEqual(await call<Buffer>((cb) => stock.getData(path, cb)), data);
      const acls = await call<StockAcl[]>((cb) => stock.getACL(path, cb));
      assert.deepEqual(
        acls.map(({ permission, id }) => ({ permission, scheme: id.scheme, id: id.id })),
        [{ permission: 31, scheme: 'world', id: 'anyone' }],
      );
      // nzc's own Exception for a server error, made by its own Exception.create.
      const missing = await call((cb) => stock.getData(`${path}/missing`, cb)).catch(
        (e: unknown) => e,
      );
      assert.ok(missing instanceof nzc.Exception, String(missing));
      assert.equal(missing.getCode(), -101);
      assert.equal(typeof missing.stack, 'string');
      // The framework's client sees the stock client's node.
      assert.deepEqual((await client.getData(path)).data, data);
    } finally {
      stock.close();
    }
  });
});
