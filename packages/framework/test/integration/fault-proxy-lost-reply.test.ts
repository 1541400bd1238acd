import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FaultProxy, TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { createFramework } from '../../src/create-framework.js';
import { isConnectionLoss, isOutcomeUnknown } from '../../src/errors/predicates.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import type { RetryAttempt, RetryPolicy } from '../../src/retry/retry-policy.js';

/** RetryNTimes(20, 50 ms) that keeps every error it was asked about. */
class RecordingRetry implements RetryPolicy {
  readonly errors: unknown[] = [];
  nextDelayMs(attempt: RetryAttempt): number | undefined {
    this.errors.push(attempt.error);
    return attempt.retryCount < 20 ? 50 : undefined;
  }
}

describe('FaultProxy.loseReply under the framework client', () => {
  let server: TestingServer;
  let proxy: FaultProxy;
  let observer: FrameworkClient;
  let client: FrameworkClient;
  const retry = new RecordingRetry();
  const events: string[] = [];

  before(async () => {
    server = await TestingServer.start();
    proxy = await FaultProxy.start({ targetPort: server.port });
    observer = createFramework({ connectString: server.connectString, logger: silentLogger });
    client = createFramework({
      connectString: proxy.connectString,
      sessionTimeoutMs: 5000,
      retryPolicy: retry,
      logger: silentLogger,
    });
    client.on('stateChanged', (state) => events.push(state));
    await Promise.all([observer.start(), client.start()]);
    assert.ok(await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) }));
  });
  after(async () => {
    await client.close();
    await observer.close();
    await proxy.close();
    await server.close();
  });
  /** Clears what the previous test recorded. */
  function fresh(): void {
    retry.errors.length = 0;
    events.length = 0;
  }

  it('a versioned setData whose reply is lost was applied; its retry meets BAD_VERSION, which is OUTCOME_UNKNOWN, never taken at face value; the session survives', async () => {
    fresh();
    const path = uniquePath('lost-set');
    await observer.create(path, { data: Buffer.from('old') });
    const sessionId = client.sessionId;
    const lost = proxy.loseReply();
    await assert.rejects(client.setData(path, Buffer.from('new'), { version: 0 }), (error) =>
      isOutcomeUnknown(error, 'BAD_VERSION'),
    );
    assert.deepEqual({ ...(await lost), xid: 0 }, { opCode: 5, xid: 0, err: 0, path });
    assert.ok(isConnectionLoss(retry.errors[0]), `first retried error: ${String(retry.errors[0])}`);
    const { data, stat } = await observer.getData(path);
    assert.equal(data.toString(), 'new');
    assert.equal(stat.version, 1);
    assert.equal(client.sessionId, sessionId);
    assert.deepEqual(events, ['SUSPENDED', 'RECONNECTED']);

    // Without a version the retry succeeds: the write was applied twice.
    const again = proxy.loseReply({ ops: ['setData'] });
    assert.equal((await client.setData(path, Buffer.from('again'))).version, 3);
    assert.equal((await again).err, 0);
    assert.equal(client.sessionId, sessionId);
  });

  it("ops ['create'] and a pathPrefix let reads and other writes through and pick the matching create", async () => {
    fresh();
    const base = uniquePath('lost-pick');
    await observer.create(`${base}/other`, { createParents: true });
    let settled = false;
    const lost = proxy.loseReply({ ops: ['create'], pathPrefix: `${base}/pick` });
    void lost.finally(() => (settled = true));
    await client.setData(`${base}/other`, Buffer.from('x'));
    assert.equal(await client.exists(`${base}/pick`), null);
    await client.create(`${base}/other/child`);
    await client.create(`${base}/pick-with-stat`, { stat: true }); // create2, not create
    await client.delete(`${base}/other/child`);
    assert.equal(settled, false, 'nothing was picked yet');
    assert.deepEqual(events, []);
    // The create was applied; the retry finds a node nothing tells from another creator's.
    await assert.rejects(client.create(`${base}/pick`), (error) =>
      isOutcomeUnknown(error, 'NODE_EXISTS'),
    );
    assert.deepEqual(
      { ...(await lost), xid: 0 },
      { opCode: 1, xid: 0, err: 0, path: `${base}/pick` },
    );
    assert.ok(await observer.exists(`${base}/pick`));
  });

  it("a delete's lost reply reports the server's answer (NO_NODE for a missing node, 0 for one it deleted); the retry's NO_NODE resolves an unversioned delete and is OUTCOME_UNKNOWN for a versioned one", async () => {
    fresh();
    const missing = uniquePath('lost-missing');
    const lostMissing = proxy.loseReply({ ops: ['delete'] });
    await client.delete(missing);
    assert.deepEqual(
      { ...(await lostMissing), xid: 0 },
      { opCode: 2, xid: 0, err: -101, path: missing },
    );

    // The server deleted the node; the retry cannot tell that from another's delete.
    const path = uniquePath('lost-delete');
    await observer.create(path);
    const lost = proxy.loseReply({ ops: ['delete'] });
    await assert.rejects(client.delete(path, { version: 0 }), (error) =>
      isOutcomeUnknown(error, 'NO_NODE'),
    );
    assert.equal((await lost).err, 0);
    assert.ok(isConnectionLoss(retry.errors.at(-1)));
  });

  it("nothing after the lost reply arrives before the reset: a later change's watch event comes after SUSPENDED", async () => {
    fresh();
    const written = uniquePath('lost-written');
    const watched = uniquePath('lost-watched');
    await Promise.all([observer.create(written), observer.create(watched)]);
    const watch = (name: string) => () => events.push(name);
    await client.getData(written, { watch: watch('written changed') });
    await client.getData(watched, { watch: watch('watched changed') });
    const lost = proxy.loseReply({ ops: ['setData'], resetAfterMs: 500 });
    void lost.then(() => events.push('reset'));
    const write = client.setData(written, Buffer.from('x'));
    await waitFor(async () => (await observer.getData(written)).stat.version === 1, {
      message: 'the setData applied',
    });
    // The server sent the setData's reply before it handled this write: the event it causes
    // follows the dropped reply on the same connection.
    await observer.setData(watched, Buffer.from('y'));
    events.push('observer wrote');
    await write;
    await waitFor(() => events.includes('watched changed'), { message: 'the watched event' });
    // ZooKeeper sends a write's own watch event ahead of its reply, so that one did arrive;
    // the later change's event only came with the reconnect (SetWatches).
    assert.deepEqual(events, [
      'written changed',
      'observer wrote',
      'reset',
      'SUSPENDED',
      'RECONNECTED',
      'watched changed',
    ]);
  });

  it('an aborted loseReply disarms (no reset follows); close() rejects a pending one', async () => {
    fresh();
    const controller = new AbortController();
    const aborted = proxy.loseReply({ signal: controller.signal });
    controller.abort(new Error('not this time'));
    await assert.rejects(aborted, /not this time/);
    await client.create(uniquePath('lost-disarmed'));
    assert.deepEqual(events, []);

    const own = await FaultProxy.start({ targetPort: server.port });
    const pending = own.loseReply();
    await own.close();
    await assert.rejects(pending, /closed with a loseReply pending/);
  });
});
