import assert from 'node:assert/strict';
import net from 'node:net';
import { after, afterEach, before, describe, it } from 'node:test';
import {
  FaultProxy,
  RawZooKeeperSession,
  TestingServer,
  uniquePath,
  waitFor,
  ZooKeeperErrorCode,
} from '../src/index.js';

describe('FaultProxy', () => {
  let server: TestingServer;
  let proxy: FaultProxy;
  const sessions: RawZooKeeperSession[] = [];
  async function connect(requestTimeoutMs = 5000): Promise<RawZooKeeperSession> {
    const session = await RawZooKeeperSession.connect(proxy.connectString, {
      requestTimeoutMs,
      connectTimeoutMs: 1000,
    });
    sessions.push(session);
    return session;
  }

  before(async () => {
    server = await TestingServer.start();
    proxy = await FaultProxy.start({ targetPort: server.port });
  });
  afterEach(() => {
    proxy.heal();
    for (const session of sessions.splice(0)) session.destroy();
  });
  after(async () => {
    await proxy.close();
    await server.close();
  });

  it('passes a raw session through to the server', async () => {
    assert.equal(proxy.connectString, `127.0.0.1:${proxy.port}`);
    assert.notEqual(proxy.port, server.port);
    const session = await connect();
    const path = uniquePath('proxy');
    await session.create(path, 'through');
    assert.equal((await session.getData(path)).toString(), 'through');
    assert.equal(proxy.connectionCount, 1);
    assert.deepEqual(proxy.mode, { type: 'PASS' });
  });

  it('blackhole: requests and new connections time out; heal: a new session works', async () => {
    const session = await connect(300);
    proxy.blackhole();
    await assert.rejects(session.exists('/'), { code: 'TIMEOUT' });
    await assert.rejects(
      RawZooKeeperSession.connect(proxy.connectString, { connectTimeoutMs: 300 }),
      { code: 'TIMEOUT' },
    );
    assert.equal(session.closed, false, 'a partition does not close connections');

    proxy.heal();
    const fresh = await connect();
    assert.equal(await fresh.exists('/'), true);
    // Held bytes were delivered, not discarded: the old connection is still a valid stream.
    assert.equal(await session.exists('/'), true);
  });

  it('drop: resets current connections and refuses new ones until heal', async () => {
    const session = await connect();
    proxy.drop();
    await waitFor(() => session.closed, { message: 'the client to see the reset' });
    assert.match(session.closeReason?.message ?? '', /ECONNRESET|closed/);
    await assert.rejects(session.exists('/'), { code: ZooKeeperErrorCode.CONNECTION_LOSS });
    await assert.rejects(
      RawZooKeeperSession.connect(proxy.connectString, { connectTimeoutMs: 1000 }),
      {
        code: ZooKeeperErrorCode.CONNECTION_LOSS,
      },
    );
    await waitFor(() => proxy.connectionCount === 0, { message: 'the proxy to forget them' });

    proxy.heal();
    assert.equal(await (await connect()).exists('/'), true);
  });

  it('delay: a round trip takes at least the delay', async () => {
    const session = await connect();
    proxy.delay(200);
    const started = performance.now();
    assert.equal(await session.exists('/'), true);
    assert.ok(performance.now() - started >= 200, `took ${performance.now() - started} ms`);
    assert.throws(() => proxy.delay(-1), /delayMs must be >= 0/);
  });

  it('close drops every connection and stops listening; a second close does nothing', async () => {
    const own = await FaultProxy.start({ targetPort: server.port });
    const session = await RawZooKeeperSession.connect(own.connectString);
    await own.close();
    await waitFor(() => session.closed, { message: 'the proxied connection to close' });
    await assert.rejects(
      new Promise((resolve, reject) => {
        const socket = net.connect(own.port, '127.0.0.1', () => resolve(socket.destroy()));
        socket.on('error', reject);
      }),
      { code: 'ECONNREFUSED' },
    );
    await own.close();
  });
});
