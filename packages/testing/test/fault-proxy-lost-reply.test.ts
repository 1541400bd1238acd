import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import {
  FaultProxy,
  RawZooKeeperSession,
  TestingServer,
  uniquePath,
  waitFor,
  ZooKeeperErrorCode,
} from '../src/index.js';

const CONNECTION_LOSS = { code: ZooKeeperErrorCode.CONNECTION_LOSS };

describe('FaultProxy.loseReply', () => {
  let server: TestingServer;
  let proxy: FaultProxy;
  let observer: RawZooKeeperSession;
  const sessions: RawZooKeeperSession[] = [];
  async function connect(connectString = proxy.connectString): Promise<RawZooKeeperSession> {
    const session = await RawZooKeeperSession.connect(connectString, { sessionTimeoutMs: 4000 });
    sessions.push(session);
    return session;
  }

  before(async () => {
    server = await TestingServer.start();
    proxy = await FaultProxy.start({ targetPort: server.port });
    observer = await connect(server.connectString);
  });
  afterEach(() => {
    for (const session of sessions.splice(1)) session.destroy();
  });
  after(async () => {
    await proxy.close();
    observer.destroy();
    await server.close();
  });

  it("a create's reply is lost: the node exists, the call sees CONNECTION_LOSS, the session lives on", async () => {
    const session = await connect();
    const path = uniquePath('lost-create');
    const lost = proxy.loseReply();
    await assert.rejects(session.create(path, 'applied'), CONNECTION_LOSS);
    const reported = await lost;
    assert.equal(reported.opCode, 1);
    assert.equal(reported.err, 0);
    assert.equal(reported.path, path);
    assert.equal(typeof reported.xid, 'number');
    assert.match(session.closeReason?.message ?? '', /ECONNRESET/);
    assert.equal((await observer.getData(path)).toString(), 'applied');
    // The session survived: its credentials attach a new connection through the proxy.
    const again = await RawZooKeeperSession.connect(proxy.connectString, {
      ...session.sessionCredentials(),
    });
    sessions.push(again);
    assert.equal(again.sessionId, session.sessionId);
    assert.equal(await again.exists(path), true);
  });

  it("ops and pathPrefix: reads and other writes pass, heal() keeps it armed, the matching create's reply is lost", async () => {
    const before = await connect();
    const base = uniquePath('lost-pick');
    await observer.create(base);
    let settled = false;
    const lost = proxy.loseReply({ ops: ['create', 2], pathPrefix: `${base}/pick` });
    void lost.finally(() => (settled = true));
    proxy.heal();
    const after = await connect(); // a connection opened after arming is watched too
    await before.create(`${base}/other`);
    assert.equal(await after.exists(`${base}/pick`), false);
    await before.delete(`${base}/other`);
    await after.create(`${base}/elsewhere-pick`);
    assert.equal(settled, false, 'nothing was picked yet');
    await assert.rejects(after.create(`${base}/pick-1`), CONNECTION_LOSS);
    assert.deepEqual(
      { ...(await lost), xid: 0 },
      { opCode: 1, xid: 0, err: 0, path: `${base}/pick-1` },
    );
    assert.equal(before.closed, false, 'the other connection is untouched');
    assert.equal(await observer.exists(`${base}/pick-1`), true);
    // One shot: the next matching create goes through.
    assert.equal(await before.create(`${base}/pick-2`), `${base}/pick-2`);
  });

  it('a request the server refused reports its error: a delete of a missing node, NO_NODE', async () => {
    const session = await connect();
    const path = uniquePath('lost-missing');
    const lost = proxy.loseReply({ ops: ['delete'] });
    await assert.rejects(session.delete(path), CONNECTION_LOSS);
    assert.deepEqual(
      { ...(await lost), xid: 0 },
      { opCode: 2, xid: 0, err: ZooKeeperErrorCode.NO_NODE, path },
    );
  });

  it('skip lets that many matching requests through first, then loses the next one; a bad skip throws', async () => {
    const session = await connect();
    const base = uniquePath('lost-skip');
    const lost = proxy.loseReply({ ops: ['create'], pathPrefix: base, skip: 2 });
    assert.equal(await session.create(base), base);
    assert.equal(await session.create(`${base}/a`), `${base}/a`);
    await assert.rejects(session.create(`${base}/b`), CONNECTION_LOSS);
    assert.equal((await lost).path, `${base}/b`);
    assert.equal(await observer.exists(`${base}/b`), true);
    for (const skip of [-1, 1.5, Number.NaN]) {
      assert.throws(() => proxy.loseReply({ skip }), /skip must be a whole number/);
    }
  });

  it('nothing the server sends after the lost reply reaches the client: a later reply, a watch event', async () => {
    const session = await connect();
    const path = uniquePath('lost-after');
    const watched = uniquePath('lost-watched');
    await observer.create(path);
    await observer.create(watched);
    const watch = await session.watchData(watched);
    assert.ok(watch);
    const lost = proxy.loseReply({ ops: ['delete'], resetAfterMs: 500 });
    const deleted = session.delete(path);
    const read = session.exists('/'); // pipelined: answered right after the delete
    await waitFor(async () => !(await observer.exists(path)), { message: 'the delete applied' });
    // The server answered the delete before it handled this, on the same ordered stream:
    // its watch event comes after the dropped reply and must not arrive either.
    await observer.delete(watched);
    await assert.rejects(deleted, CONNECTION_LOSS);
    await assert.rejects(read, CONNECTION_LOSS);
    await assert.rejects(watch.fired, CONNECTION_LOSS);
    assert.equal((await lost).err, 0);
  });

  it('abort disarms and rejects with the reason; close() rejects a pending one', async () => {
    const session = await connect();
    const controller = new AbortController();
    const aborted = proxy.loseReply({ signal: controller.signal });
    assert.throws(() => proxy.loseReply(), /already pending/);
    controller.abort(new Error('no longer wanted'));
    await assert.rejects(aborted, /no longer wanted/);
    await session.create(uniquePath('lost-disarmed')); // passes: nothing is armed
    await assert.rejects(proxy.loseReply({ signal: AbortSignal.abort('early') }), (reason) => {
      return reason === 'early';
    });
    assert.throws(() => proxy.loseReply({ ops: ['craete'] }), /unknown op "craete"/);
    assert.throws(() => proxy.loseReply({ resetAfterMs: -1 }), /resetAfterMs must be >= 0/);

    const own = await FaultProxy.start({ targetPort: server.port });
    const pending = own.loseReply();
    await own.close();
    await assert.rejects(pending, /FaultProxy closed with a loseReply pending/);
    assert.throws(() => own.loseReply(), /FaultProxy is closed/);
  });
});
