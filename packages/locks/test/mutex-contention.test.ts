// Many sessions on one lock, and sessions killed on the server while they hold or wait.
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { killSession, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import { InterProcessMutex } from '../src/index.js';
import { OverlapWitness, watchersOf } from './helpers.js';

describe('InterProcessMutex under contention and session loss', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(() => server.close());

  it('8 clients x 100 handoffs: never two holders at once, fencing tokens strictly increasing', async () => {
    const path = uniquePath('contended');
    const clients = await Promise.all(Array.from({ length: 8 }, () => connectedClient(server)));
    try {
      const witness = new OverlapWitness();
      await Promise.all(
        clients.map(async (client, index) => {
          const mutex = new InterProcessMutex(client, path);
          for (let i = 0; i < 100; i++) {
            await mutex.acquire();
            try {
              witness.enter(`client ${index}`, mutex.hold!.fencingToken);
              await nextTurn(); // hold across a turn of the event loop
              witness.exit();
            } finally {
              await mutex.release();
            }
          }
        }),
      );
      assert.deepEqual(witness.violations, []);
      assert.equal(witness.maxHolders, 1);
      assert.equal(witness.handoffs, 800);
      assert.deepEqual(await clients[0]!.getChildren(path), []);
    } finally {
      await closeAll(clients);
    }
  });

  it("fencing token = the lock node's czxid, strictly increasing over 200 handoffs among 8 clients, across a delete and re-create of the lock's parent", async () => {
    const path = uniquePath('fencing');
    const clients = await Promise.all(Array.from({ length: 8 }, () => connectedClient(server)));
    try {
      const witness = new OverlapWitness();
      const mismatches: string[] = [];
      const parents: bigint[] = [];
      // Two rounds of 8 x 12 and 8 x 13 handoffs; between them the (empty) parent goes.
      for (const perClient of [12, 13]) {
        await Promise.all(
          clients.map(async (client, index) => {
            const mutex = new InterProcessMutex(client, path);
            for (let i = 0; i < perClient; i++) {
              await mutex.withLock(async ({ fencingToken, lockPath }) => {
                witness.enter(`client ${index}`, fencingToken);
                const czxid = (await client.exists(lockPath))?.czxid;
                if (czxid !== fencingToken) mismatches.push(`${fencingToken} != czxid ${czxid}`);
                witness.exit();
              });
            }
          }),
        );
        parents.push((await clients[0]!.exists(path))!.czxid);
        await clients[0]!.delete(path);
      }
      assert.deepEqual(witness.violations, []);
      assert.deepEqual(mismatches, []);
      assert.equal(witness.handoffs, 200);
      assert.ok(parents[1]! > parents[0]!, 'the parent was made again');
    } finally {
      await closeAll(clients);
    }
  });

  it('killSession of a waiter: it queues again with a new node and acquires; no orphan node blocks the lock', async () => {
    const path = uniquePath('kill-waiter');
    const holderClient = await connectedClient(server);
    // A short session: if the killed client's old connection lingers half-open (a known
    // ZooKeeper quirk of session takeover), its liveness check notices within 2/3 of it.
    const waiterClient = await connectedClient(server, { sessionTimeoutMs: 4000 });
    try {
      const holder = new InterProcessMutex(holderClient, path);
      const waiter = new InterProcessMutex(waiterClient, path);
      await holder.acquire();
      // Settle-safe from the start, so a failure cannot surface after the test.
      const waiting = waiter.acquire().catch((error: unknown) => error);
      const holderNode = holder.getLockPath()!;
      await waitFor(async () => (await watchersOf(server, holderNode)).length === 1, {
        message: 'the waiter watching the holder',
      });
      const [, firstWaiterNode] = await holder.getParticipantNodes();
      const sessionBefore = waiterClient.sessionId;
      await killSession(waiterClient, server.connectString);
      // It comes back in a new session and queues again behind the holder.
      await waitFor(
        async () => {
          const nodes = await holder.getParticipantNodes();
          return (
            waiterClient.sessionId !== sessionBefore &&
            nodes.length === 2 &&
            nodes[1] !== firstWaiterNode
          );
        },
        { message: 'the waiter queued again under its new session', timeoutMs: 20_000 },
      );
      await holder.release();
      assert.equal(await waiting, true);
      assert.equal(
        (await waiterClient.exists(waiter.getLockPath()!))?.ephemeralOwner,
        waiterClient.sessionId,
      );
      await waiter.release();
      assert.deepEqual(await holderClient.getChildren(path), [], 'no orphan node left');
    } finally {
      await closeAll([holderClient, waiterClient]);
    }
  });

  it("killSession of the holder: the waiter takes over, the holder's lost signal fires, and its late release removes nothing of the new holder", async () => {
    const path = uniquePath('kill-holder');
    const holderClient = await connectedClient(server, { sessionTimeoutMs: 4000 });
    const waiterClient = await connectedClient(server);
    try {
      const holder = new InterProcessMutex(holderClient, path);
      const waiter = new InterProcessMutex(waiterClient, path);
      await holder.acquire();
      const lost = holder.hold!.lost;
      const oldToken = holder.hold!.fencingToken;
      const waiting = waiter.acquire().catch((error: unknown) => error);
      await waitFor(async () => (await watchersOf(server, holder.getLockPath()!)).length === 1, {
        message: 'the waiter watching the holder',
      });
      await killSession(holderClient, server.connectString);
      assert.equal(await waiting, true);
      await waitFor(() => lost.aborted, { message: "the holder's lost signal" });
      assert.ok(waiter.hold!.fencingToken > oldToken);
      await holder.release(); // its node is gone with its session: a quiet no-op
      assert.deepEqual(await waiter.getParticipantNodes(), [waiter.getLockPath()]);
      assert.equal(holder.isAcquiredInThisProcess(), false);
      await waiter.release();
    } finally {
      await closeAll([holderClient, waiterClient]);
    }
  });
});
