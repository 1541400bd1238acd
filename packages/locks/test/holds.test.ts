// acquireHold (the hold instead of a boolean), holds released by `await using`, the JSON form
// of a hold, and the read acquire that would wait for this process's own write hold.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isConnectionLoss, type FrameworkClient } from '@zkrecipes/framework';
import { TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import {
  IllegalMonitorStateError,
  InterProcessMutex,
  InterProcessReadWriteLock,
  runInFlow,
} from '../src/index.js';

/** A mutex that exposes the protected hold-loss subscription, as LeaderSelector's does. */
class LossForwardingMutex extends InterProcessMutex {
  whenHoldLost(listener: (reason: Error) => void): (() => void) | undefined {
    return this.onHoldLost(listener);
  }
}

describe('lock holds', () => {
  let server: TestingServer;
  let clients: FrameworkClient[];
  before(async () => {
    server = await TestingServer.start();
    clients = await Promise.all([connectedClient(server), connectedClient(server)]);
  });
  after(async () => {
    await closeAll(clients);
    await server.close();
  });

  it('acquireHold gives the hold (undefined while another client holds it); await using releases it', async () => {
    const path = uniquePath('hold');
    const mine = new InterProcessMutex(clients[0]!, path);
    const theirs = new InterProcessMutex(clients[1]!, path);
    {
      await using hold = await mine.acquireHold(0);
      assert.ok(hold !== undefined);
      const { data, stat } = await clients[0]!.getData(hold.lockPath);
      assert.equal(data.length, 0);
      assert.equal(hold.fencingToken, stat.czxid);
      assert.equal(hold.fencingTokenString, stat.czxid.toString());
      assert.equal(hold.isValid(), true);
      assert.equal(await theirs.acquireHold(0), undefined, 'taken: no hold');
      await using none = await theirs.acquireHold(50);
      assert.equal(none, undefined, 'await using accepts undefined');
    }
    assert.equal(mine.isAcquiredInThisProcess(), false, 'released at the end of the block');
    assert.deepEqual(await mine.getParticipantNodes(), []);
    const hold = await theirs.acquireHold();
    await hold.release();
    await hold.release(); // the first call's outcome; nothing more released
    assert.equal(theirs.isAcquiredInThisProcess(), false);
    assert.equal(hold.isValid(), false);
  });

  it('JSON.stringify of a hold gives the lock node and the token in decimal', async () => {
    const mutex = new InterProcessMutex(clients[0]!, uniquePath('json'));
    await using hold = await mutex.acquireHold();
    const expected = { lockPath: hold.lockPath, fencingToken: hold.fencingToken.toString() };
    assert.deepEqual(JSON.parse(JSON.stringify(hold)), expected);
    assert.deepEqual(JSON.parse(JSON.stringify({ lock: mutex.hold })), { lock: expected });
    assert.equal(BigInt(hold.fencingTokenString), hold.fencingToken);
  });

  it('in a flow, each acquireHold is one acquire: the lock goes back after the last release', async () => {
    const mutex = new InterProcessMutex(clients[0]!, uniquePath('flow-hold'));
    await runInFlow(async () => {
      const outer = await mutex.acquireHold();
      {
        await using inner = await mutex.acquireHold(0);
        assert.equal(inner?.lockPath, outer.lockPath, 're-entered: the same node');
      }
      assert.equal(mutex.isAcquiredInThisProcess(), true, 'still held once');
      await outer.release();
      assert.equal(mutex.isAcquiredInThisProcess(), false);
    });
    const hold = await mutex.acquireHold();
    await mutex.release(); // released through the lock: the handle has nothing left to release
    await assert.rejects(hold.release(), IllegalMonitorStateError);
  });

  it('write acquire() then read acquire() outside a flow fails fast with IllegalMonitorStateError naming the flow rule; no read node is made', async () => {
    const path = uniquePath('downgrade-outside');
    const rw = new InterProcessReadWriteLock(clients[0]!, path);
    await rw.writeLock().acquire();
    try {
      for (const timeoutMs of [undefined, 1500, 0]) {
        const startedAt = performance.now();
        await assert.rejects(rw.readLock().acquire(timeoutMs), (error: unknown) => {
          assert.ok(error instanceof IllegalMonitorStateError);
          assert.equal(error.code, 'ILLEGAL_MONITOR_STATE');
          assert.match(error.message, /outside a flow/);
          assert.match(error.message, /runInFlow/);
          assert.match(error.message, /release the write lock/);
          return true;
        });
        assert.ok(performance.now() - startedAt < timing.ms(200), `fast (timeout ${timeoutMs})`);
      }
      assert.equal((await rw.readLock().getParticipantNodes()).length, 0, 'no read node left');
    } finally {
      await rw.writeLock().release();
    }
    // The downgrade done the documented way still works.
    await runInFlow(async () => {
      await rw.writeLock().acquire();
      assert.equal(await rw.readLock().acquire(0), true);
      await rw.writeLock().release();
      await rw.readLock().release();
    });
  });

  it('a reader in a flow of its own waits for the write hold this process took outside a flow', async () => {
    const rw = new InterProcessReadWriteLock(clients[0]!, uniquePath('reader-flow'));
    await rw.writeLock().acquire();
    let read = false;
    const reader = rw.readLock().withLock(() => {
      read = true;
    });
    await waitFor(async () => (await rw.readLock().getParticipantNodes()).length === 1, {
      message: 'the reader queued',
    });
    assert.equal(read, false, 'waits while the write lock is held');
    await rw.writeLock().release();
    await reader;
    assert.equal(read, true);
  });

  it('a writer in another process still makes a read acquire outside a flow wait (no error)', async () => {
    const path = uniquePath('other-writer');
    const other = new InterProcessReadWriteLock(clients[1]!, path);
    const rw = new InterProcessReadWriteLock(clients[0]!, path);
    await other.writeLock().acquire();
    const startedAt = performance.now();
    assert.equal(await rw.readLock().acquire(300), false, 'timed out behind the other writer');
    assert.ok(performance.now() - startedAt >= 290);
    const waiting = rw.readLock().acquire();
    await waitFor(async () => (await rw.readLock().getParticipantNodes()).length === 1, {
      message: 'the reader queued',
    });
    await other.writeLock().release();
    assert.equal(await waiting, true);
    await rw.readLock().release();
  });

  it("onHoldLost: the lost signal's reason on SUSPENDED, made signal or not; never after release; at once when already lost", async () => {
    const own = await connectedClient(server, { sessionTimeoutMs: 10_000 });
    const path = uniquePath('hold-lost');
    const held = new LossForwardingMutex(own, path);
    const released = new LossForwardingMutex(own, `${path}-released`);
    const withSignal = new LossForwardingMutex(own, `${path}-signal`);
    try {
      assert.equal(
        held.whenHoldLost(() => undefined),
        undefined,
        'no hold: nothing to follow',
      );
      await held.acquire();
      await released.acquire();
      const signalHold = await withSignal.acquireHold();
      const lostSignal = signalHold.lost; // made before the subscription: followed
      const reasons: Error[] = [];
      const signalReasons: Error[] = [];
      const releasedReasons: Error[] = [];
      held.whenHoldLost((reason) => reasons.push(reason));
      withSignal.whenHoldLost((reason) => signalReasons.push(reason));
      released.whenHoldLost((reason) => releasedReasons.push(reason));
      await released.release();
      const stopped = held.whenHoldLost(() => assert.fail('stopped listeners are not called'));
      stopped?.();
      await server.stop();
      await waitFor(() => reasons.length === 1 && signalReasons.length === 1, {
        message: 'the loss reaches the listeners',
      });
      assert.ok(isConnectionLoss(reasons[0]), String(reasons[0]));
      assert.equal(signalReasons[0], lostSignal.reason, 'the same reason as the made signal');
      assert.deepEqual(releasedReasons, [], 'a released hold tells nothing');
      const late: Error[] = [];
      held.whenHoldLost((reason) => late.push(reason));
      assert.equal(late.length, 1, 'already lost: told at once');
      assert.ok(isConnectionLoss(late[0]));
    } finally {
      await own.close();
      await server.restart();
    }
  });

  it('with the server stopped, the read acquire behind our own write hold still fails fast', async () => {
    const own = await connectedClient(server, { sessionTimeoutMs: 10_000 });
    const rw = new InterProcessReadWriteLock(own, uniquePath('downgrade-down'));
    await rw.writeLock().acquire();
    await server.stop();
    try {
      const startedAt = performance.now();
      await assert.rejects(rw.readLock().acquire(), IllegalMonitorStateError);
      assert.ok(performance.now() - startedAt < timing.ms(200));
    } finally {
      await own.close();
      await server.restart();
    }
  });
});
