// Network faults between a holder and its server (FaultProxy), with the invariant that matters:
// a holder learns it may have lost the lock before anyone else can take it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { firstValueFrom, filter } from 'rxjs';
import {
  ConnectionState,
  createFramework,
  RetryNTimes,
  silentLogger,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { FaultProxy, killSession, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { InterProcessMutex } from '../src/index.js';
import { closeAll, connectedClient } from './helpers.js';

function nextState(client: FrameworkClient, wanted: ConnectionState): Promise<ConnectionState> {
  return firstValueFrom(client.connectionStates.pipe(filter((state) => state === wanted)));
}

describe('InterProcessMutex with a partitioned holder', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(() => server.close());

  it('holder blackholed past the session timeout: its lost signal fires before the other client acquires; its late release cannot remove the new holder node', async () => {
    const path = uniquePath('blackhole');
    const proxy = await FaultProxy.start({ targetPort: server.port });
    const holderClient = await connectedClient(server, {
      connectString: proxy.connectString,
      sessionTimeoutMs: 2000,
    });
    const otherClient = await connectedClient(server);
    try {
      const holder = new InterProcessMutex(holderClient, path);
      const other = new InterProcessMutex(otherClient, path);
      await holder.acquire();
      const { lost, fencingToken: oldToken, lockPath: oldNode } = holder.hold!;
      let lostAtMs: number | undefined;
      lost.addEventListener('abort', () => (lostAtMs = performance.now()));
      const acquired = other.acquire().then(() => performance.now());

      proxy.blackhole();
      const acquiredAtMs = await acquired;
      assert.ok(lostAtMs !== undefined, 'lost fired');
      assert.ok(
        lostAtMs < acquiredAtMs,
        `lost fired ${Math.round(acquiredAtMs - lostAtMs)} ms before the other client acquired`,
      );
      assert.ok(other.hold!.fencingToken > oldToken);

      proxy.heal();
      await waitFor(() => holderClient.connectionState === ConnectionState.RECONNECTED, {
        message: 'the old holder back with a new session',
      });
      await holder.release(); // deletes only its own (long gone) node
      assert.deepEqual(await other.getParticipantNodes(), [other.getLockPath()]);
      assert.equal(await holderClient.exists(oldNode), null);
      assert.equal(await holder.acquire(0), false, 'the new holder keeps it');
      await other.release();
    } finally {
      await closeAll([holderClient, otherClient]);
      await proxy.close();
    }
  });

  it("a short partition (SUSPENDED, same session): 'standard' aborts lost, 'session' keeps it until LOST", async () => {
    const proxy = await FaultProxy.start({ targetPort: server.port });
    const options = { connectString: proxy.connectString, sessionTimeoutMs: 4000 };
    const standard = await connectedClient(server, { ...options, errorPolicy: 'standard' });
    const session = await connectedClient(server, { ...options, errorPolicy: 'session' });
    try {
      const standardLock = new InterProcessMutex(standard, uniquePath('standard'));
      const sessionLock = new InterProcessMutex(session, uniquePath('session'));
      await standardLock.acquire();
      await sessionLock.acquire();
      const sessionIds = [standard.sessionId, session.sessionId];
      const suspended = [standard, session].map((client) => nextState(client, 'SUSPENDED'));
      proxy.blackhole();
      await Promise.all(suspended);
      const reconnected = [standard, session].map((client) => nextState(client, 'RECONNECTED'));
      proxy.heal();
      await Promise.all(reconnected);
      assert.deepEqual([standard.sessionId, session.sessionId], sessionIds, 'same sessions');
      assert.equal(standardLock.hold!.lost.aborted, true);
      assert.equal(sessionLock.hold!.lost.aborted, false);
      assert.notEqual(await session.exists(sessionLock.getLockPath()!), null, 'still held');

      await killSession(session, server.connectString);
      await waitFor(() => sessionLock.hold!.lost.aborted, { message: 'lost on LOST' });
      await standardLock.release();
      await sessionLock.release();
    } finally {
      await closeAll([standard, session]);
      await proxy.close();
    }
  });

  it('a waiter whose session is replaced client-side (simulated LOST) queues again in the new session, never with its old node', async () => {
    const path = uniquePath('stale-session');
    const proxy = await FaultProxy.start({ targetPort: server.port });
    const holderClient = await connectedClient(server);
    // LOST 10% of the timeout after SUSPENDED: long before the server expires the old session.
    const waiterClient = createFramework({
      connectString: proxy.connectString,
      sessionTimeoutMs: 8000,
      sessionExpirationPercent: 10,
      retryPolicy: new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 50 }),
      logger: silentLogger,
    });
    try {
      await waiterClient.start();
      await waiterClient.blockUntilConnected();
      const holder = new InterProcessMutex(holderClient, path);
      const waiter = new InterProcessMutex(waiterClient, path);
      await holder.acquire();
      const waiting = waiter.acquire();
      await waitFor(async () => (await holderClient.getChildren(path)).length === 2, {
        message: 'the waiter queued',
      });
      const [, oldNode] = await holder.getParticipantNodes();
      const oldSession = waiterClient.sessionId;
      const lost = nextState(waiterClient, 'LOST');
      proxy.drop(); // resets: nothing of the old connection (no close) reaches the server later
      await lost;
      const reconnected = nextState(waiterClient, 'RECONNECTED');
      proxy.heal();
      await reconnected;
      assert.notEqual(waiterClient.sessionId, oldSession);
      // The server has not expired the old session yet (7 s to go): its node is still queued.
      assert.equal((await holderClient.exists(oldNode!))?.ephemeralOwner, oldSession);
      // The old session may still be alive on the server, and with it the old node: it must
      // not be the node the waiter ends up holding with.
      await holder.release();
      assert.equal(await waiting, true);
      const held = waiter.getLockPath()!;
      assert.notEqual(held, oldNode);
      assert.equal((await waiterClient.exists(held))?.ephemeralOwner, waiterClient.sessionId);
      assert.equal(await waiterClient.exists(oldNode!), null, 'the old node was removed');
      await waiter.release();
    } finally {
      await closeAll([holderClient, waiterClient]);
      await proxy.close();
    }
  });
});
