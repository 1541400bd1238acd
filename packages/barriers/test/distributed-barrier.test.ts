import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isClosed, isInvalidArgument, type FrameworkClient } from '@zkrecipes/framework';
import { killSession, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { connect } from '@zkrecipes/test-support';
import { DistributedBarrier } from '../src/index.js';

/** Tracks a promise so a test can assert it is still pending without waiting for it. */
function track<T>(promise: Promise<T>): { settled: () => boolean; promise: Promise<T> } {
  let settled = false;
  const tracked = promise.finally(() => (settled = true));
  return { settled: () => settled, promise: tracked };
}

describe('DistributedBarrier', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    client = await connect(server.connectString);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('waitOnBarrier resolves true at once when no barrier is set', async () => {
    const barrier = new DistributedBarrier(client, uniquePath('barrier'));
    assert.equal(await barrier.waitOnBarrier(), true);
    assert.equal(await barrier.waitOnBarrier({ timeoutMs: 0 }), true);
  });

  it('holds waiters while set and releases every one of them on removeBarrier', async () => {
    const path = `${uniquePath('barrier')}/gate`;
    const coordinator = new DistributedBarrier(client, path);
    await coordinator.setBarrier();
    await coordinator.setBarrier(); // already set is fine
    const other = await connect(server.connectString);
    try {
      const waiters = [client, other, other].map((c) =>
        track(new DistributedBarrier(c, path).waitOnBarrier()),
      );
      // A data change wakes the watch but is not a removal: nobody may pass.
      await client.setData(path, Buffer.from('x'));
      await client.exists(path);
      await other.exists(path);
      assert.deepEqual(
        waiters.map((w) => w.settled()),
        [false, false, false],
      );
      await coordinator.removeBarrier();
      assert.deepEqual(await Promise.all(waiters.map((w) => w.promise)), [true, true, true]);
      await coordinator.removeBarrier(); // already removed is fine
    } finally {
      await other.close();
    }
  });

  it('resolves false when timeoutMs passes with the barrier still set', async () => {
    const barrier = new DistributedBarrier(client, uniquePath('barrier'));
    await barrier.setBarrier();
    const started = performance.now();
    assert.equal(await barrier.waitOnBarrier({ timeoutMs: 150 }), false);
    assert.ok(performance.now() - started >= 140);
    assert.equal(await barrier.waitOnBarrier({ timeoutMs: 0 }), false);
    await barrier.removeBarrier();
  });

  it('rejects with the signal reason on abort, and checks its options before sending', async () => {
    const barrier = new DistributedBarrier(client, uniquePath('barrier'));
    await barrier.setBarrier();
    const controller = new AbortController();
    const waiting = assert.rejects(barrier.waitOnBarrier({ signal: controller.signal }), /stop/);
    controller.abort(new Error('stop waiting'));
    await waiting;
    await assert.rejects(barrier.waitOnBarrier({ signal: controller.signal }), /stop waiting/);
    await assert.rejects(barrier.waitOnBarrier({ timeoutMs: -1 }), isInvalidArgument);
    assert.throws(() => new DistributedBarrier(client, 'relative'), isInvalidArgument);
    await barrier.removeBarrier();
  });

  it('keeps waiting across a session expiry and passes once the barrier is removed', async () => {
    const path = uniquePath('barrier');
    // A short session: if the owner's reconnect races the takeover, the server can leave it on
    // a dead connection that only the heartbeat deadline (2/3 of the timeout) uncovers.
    const waiterClient = await connect(server.connectString, { sessionTimeoutMs: 4000 });
    try {
      await new DistributedBarrier(client, path).setBarrier();
      const waiting = track(new DistributedBarrier(waiterClient, path).waitOnBarrier());
      const firstSession = waiterClient.sessionId;
      await killSession(waiterClient, server.connectString);
      await waitFor(
        () =>
          waiterClient.connectionState === 'RECONNECTED' && waiterClient.sessionId !== firstSession,
        { message: 'the waiter to get a new session' },
      );
      await waiterClient.exists(path);
      assert.equal(waiting.settled(), false);
      await new DistributedBarrier(client, path).removeBarrier();
      assert.equal(await waiting.promise, true);
    } finally {
      await waiterClient.close();
    }
  });

  it('rejects a wait with ClosedError when its client closes', async () => {
    const path = uniquePath('barrier');
    const closing = await connect(server.connectString);
    await new DistributedBarrier(client, path).setBarrier();
    const waiting = assert.rejects(new DistributedBarrier(closing, path).waitOnBarrier(), isClosed);
    await closing.exists(path);
    await closing.close();
    await waiting;
  });
});
