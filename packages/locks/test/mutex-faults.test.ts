// Faults between a holder and its server (a FaultProxy partition, an event-loop stall), with
// the invariant that matters: a holder learns it may have lost the lock (its lost signal, its
// isValid()) before anyone else can take it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { firstValueFrom, filter } from 'rxjs';
import {
  ConnectionState,
  createFramework,
  RetryNTimes,
  silentLogger,
  type ErrorPolicy,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { FaultProxy, killSession, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import { InterProcessMutex } from '../src/index.js';

const stallingHolder = fileURLToPath(new URL('./fixtures/stalling-holder.js', import.meta.url));

/** What one partition trial saw, on this process's performance.now() clock. */
interface Trial {
  readonly lostAtMs: number | undefined;
  readonly acquiredAtMs: number;
  readonly validBeforeFault: boolean;
  readonly validWhenOtherAcquired: boolean;
}

/**
 * One trial: a holder behind its own proxy (a 2 s session under `policy`), another client
 * queued behind it on its own lock path; the holder's link is blackholed until the other
 * client holds the lock.
 */
async function partitionTrial(
  server: TestingServer,
  policy: { readonly errorPolicy: ErrorPolicy; readonly sessionExpirationPercent: number },
): Promise<Trial> {
  const path = uniquePath('trial');
  const proxy = await FaultProxy.start({ targetPort: server.port });
  const clients: FrameworkClient[] = [];
  try {
    const holderClient = await connectedClient(server, {
      ...policy,
      connectString: proxy.connectString,
      sessionTimeoutMs: 2000,
    });
    clients.push(holderClient);
    const otherClient = await connectedClient(server);
    clients.push(otherClient);
    const holder = new InterProcessMutex(holderClient, path);
    await holder.acquire();
    const hold = holder.hold!;
    let lostAtMs: number | undefined;
    hold.lost.addEventListener('abort', () => (lostAtMs = performance.now()));
    const other = new InterProcessMutex(otherClient, path);
    const acquired = other.acquire().then(() => ({
      acquiredAtMs: performance.now(),
      validWhenOtherAcquired: hold.isValid(),
    }));
    await waitFor(async () => (await otherClient.getChildren(path)).length === 2, {
      message: 'the other client queued',
    });
    const validBeforeFault = hold.isValid();
    proxy.blackhole();
    const outcome = await acquired;
    await other.release();
    return { lostAtMs, validBeforeFault, ...outcome };
  } finally {
    await closeAll(clients);
    await proxy.close();
  }
}

const PARTITION_POLICIES = [
  { errorPolicy: 'standard', sessionExpirationPercent: 100 },
  { errorPolicy: 'session', sessionExpirationPercent: 100 },
  { errorPolicy: 'session', sessionExpirationPercent: 50 },
] as const;

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

  for (const policy of PARTITION_POLICIES) {
    const name = `'${policy.errorPolicy}' at sessionExpirationPercent ${policy.sessionExpirationPercent}`;
    it(`holder blackholed, ${name}: lost fires and isValid() turns false strictly before the other client acquires, in 20 of 20 concurrent trials`, async (t) => {
      const trials = await Promise.all(
        Array.from({ length: 20 }, () => partitionTrial(server, policy)),
      );
      const marginsMs = trials.map(({ lostAtMs, acquiredAtMs }) =>
        lostAtMs === undefined ? Number.NaN : Math.round(acquiredAtMs - lostAtMs),
      );
      t.diagnostic(`lost fired this many ms before the other acquired: ${marginsMs.join(', ')}`);
      assert.ok(
        trials.every((trial) => trial.validBeforeFault),
        'every hold valid before the fault',
      );
      assert.ok(
        trials.every(
          ({ lostAtMs, acquiredAtMs }) => lostAtMs !== undefined && lostAtMs < acquiredAtMs,
        ),
        `lost before the other acquired in every trial: ${marginsMs.join(', ')}`,
      );
      assert.ok(
        trials.every((trial) => !trial.validWhenOtherAcquired),
        'isValid() false when the other acquired',
      );
    });
  }

  it('a holder whose event loop stalls for 1.5 x the session timeout: isValid() is false on the first line after the stall, and another process holds the lock by then', async () => {
    const path = uniquePath('stall');
    const sessionTimeoutMs = 2000;
    const child = spawn(
      process.execPath,
      [
        stallingHolder,
        server.connectString,
        path,
        String(sessionTimeoutMs),
        String(1.5 * sessionTimeoutMs),
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const nextLine = async (): Promise<Record<string, unknown>> =>
      JSON.parse(String((await lines.next()).value)) as Record<string, unknown>;
    const client = await connectedClient(server);
    try {
      assert.equal((await nextLine()).valid, true, 'the child holds the lock');
      const other = new InterProcessMutex(client, path);
      const acquired = other.acquire().then(() => performance.timeOrigin + performance.now());
      await waitFor(async () => (await client.getChildren(path)).length === 2, {
        message: 'queued behind the child',
      });
      child.stdin.write('stall\n');
      const afterStall = await nextLine();
      assert.equal(afterStall.valid, false, 'isValid() on the first line after the stall');
      assert.equal(afterStall.validUntilPassed, true);
      // Both clocks count from the same wall clock (performance.timeOrigin).
      const acquiredAt = await acquired;
      assert.ok(
        acquiredAt < (afterStall.stallEndedAt as number),
        `acquired ${Math.round((afterStall.stallEndedAt as number) - acquiredAt)} ms before the stall ended`,
      );
      await other.release();
    } finally {
      child.kill('SIGKILL');
      await client.close();
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
