// The one lock loop (LockInternals), seen from the wire: what a waiter sends and watches, for a
// mutex (the node ahead) and for a semaphore's leases (the children), and the semaphore's
// retry when its lease vanishes with its session.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { joinPath, type FrameworkClient } from '@zkrecipes/framework';
import { killSession, TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { InterProcessMutex, InterProcessSemaphoreV2, Lease } from '../src/index.js';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import { tracingClient, watchedPaths, watchersOf } from './helpers.js';

let server: TestingServer;
let clients: FrameworkClient[];
before(async () => {
  server = await TestingServer.start();
  clients = await Promise.all(Array.from({ length: 3 }, () => connectedClient(server)));
});
after(async () => {
  await closeAll(clients);
  await server.close();
});

/**
 * Resolves once `client` has sent `count` traced calls and the server has answered them (a
 * later request of the same session is answered after them). The server's watch listings
 * (wchc, wchp) show data watches only, so a children watch is known to be set this way.
 */
async function answered(
  traced: { calls: readonly unknown[] },
  client: FrameworkClient,
  count: number,
): Promise<void> {
  await waitFor(() => traced.calls.length >= count, { message: `${count} calls sent` });
  await client.exists('/');
}

/** Each traced call as [op, opens a round trip]. */
function trace(calls: readonly { op: string; opensRoundTrip: boolean }[]): [string, boolean][] {
  return calls.map((call) => [call.op, call.opensRoundTrip]);
}

describe('LockInternals', () => {
  it('a mutex waiter: create and first look in one round trip, a watch on the node ahead, no new look when it goes', async () => {
    const [a, b] = clients as [FrameworkClient, FrameworkClient];
    const path = uniquePath('loop-waiter');
    const holder = new InterProcessMutex(a, path);
    await holder.acquire(); // makes the parent: the waiter's create needs no retry
    const traced = tracingClient(b);
    const waiter = new InterProcessMutex(traced.client, path);
    const waiting = waiter.acquire();
    const holderNode = holder.getLockPath()!;
    await waitFor(async () => (await watchersOf(server, holderNode)).length === 1, {
      message: 'the waiter watching the holder',
    });
    await holder.release();
    await waiting;
    assert.deepEqual(trace(traced.calls), [
      ['create', true],
      ['getChildren', false], // sent while the create is in flight
      ['getData', true], // the node ahead, with a watch
      // its deletion is judged on the first look: nothing can join a mutex's queue ahead of us
    ]);
    assert.equal(traced.calls[2]!.path, holderNode);
    assert.deepEqual(await watchedPaths(server, b), [], 'the watch fired; none is left');
    await waiter.release();
  });

  it('a waiter whose look is older than the node it watches reads the children again when that node goes', async () => {
    const [a, b, c] = clients as [FrameworkClient, FrameworkClient, FrameworkClient];
    const path = uniquePath('loop-stale');
    const first = new InterProcessMutex(a, path);
    await first.acquire();
    const second = new InterProcessMutex(b, path);
    const secondWaiting = second.acquire();
    await waitFor(async () => (await watchersOf(server, first.getLockPath()!)).length === 1, {
      message: 'the second watching the first',
    });
    const traced = tracingClient(c);
    const third = new InterProcessMutex(traced.client, path);
    const thirdWaiting = third.acquire();
    let thirdHolds = false;
    void thirdWaiting.then(() => (thirdHolds = true));
    await answered(traced, c, 3); // its look saw both nodes ahead; it watches the second
    await first.release();
    await secondWaiting; // right behind the holder: no read
    // The third's look still has the first node ahead of the second: not enough to hold on.
    assert.equal(thirdHolds, false);
    await second.release();
    await thirdWaiting;
    assert.deepEqual(trace(traced.calls), [
      ['create', true],
      ['getChildren', false],
      ['getData', true], // the second node, with a watch
      ['getChildren', true], // its look was stale: read again, then hold
    ]);
    await third.release();
  });

  it('a semaphore lease that fits at once: mutex turn, lease and its first look, mutex release; no watch', async () => {
    const path = uniquePath('loop-lease');
    const traced = tracingClient(clients[0]!);
    const semaphore = new InterProcessSemaphoreV2(traced.client, path, 2);
    await (await semaphore.acquire()).close(); // makes the parents
    traced.reset();
    const watchBytes = clients[0]!.watchBudget.usedBytes;
    const lease = await semaphore.acquire();
    assert.deepEqual(trace(traced.calls), [
      ['create', true], // our turn at the semaphore's mutex...
      ['getChildren', false], // ...and the first look at it, pipelined
      ['create', true], // our lease...
      ['getChildren', false], // ...and the first count, pipelined
      ['delete', true], // the mutex given back
    ]);
    assert.deepEqual(
      traced.calls.map((call) => call.path),
      [
        joinPath(path, 'locks/lock-'),
        joinPath(path, 'locks'),
        joinPath(path, 'leases/lease-'),
        joinPath(path, 'leases'),
        traced.calls[4]!.path,
      ],
    );
    assert.equal(clients[0]!.watchBudget.usedBytes, watchBytes, 'no watch set');
    await lease.close();
  });

  it('a semaphore waiter watches the leases, not one of them: returning the newest lease lets it in', async () => {
    const [a, b, c] = clients as [FrameworkClient, FrameworkClient, FrameworkClient];
    const path = uniquePath('loop-lease-wait');
    const leasesPath = joinPath(path, 'leases');
    const oldest = await new InterProcessSemaphoreV2(a, path, 2).acquire();
    const newest = await new InterProcessSemaphoreV2(b, path, 2).acquire();
    const traced = tracingClient(c);
    const semaphore = new InterProcessSemaphoreV2(traced.client, path, 2);
    const waiting = semaphore.acquire(1, timing.ms(10_000));
    await answered(traced, c, 5); // its count with a watch: the leases are watched
    // The oldest lease, two places ahead (the one a watch on a single node would pick), stays.
    await newest.close();
    const [lease] = (await waiting) ?? [];
    assert.ok(lease !== undefined, 'a lease within 10 s');
    assert.deepEqual(trace(traced.calls), [
      ['create', true],
      ['getChildren', false],
      ['create', true],
      ['getChildren', false], // three leases for two: wait
      ['getChildren', true], // the count again, leaving a watch: still three
      ['getChildren', true], // after the watch fired: two, ours among them
      ['delete', true],
    ]);
    assert.deepEqual(
      traced.calls.slice(3, 6).map((call) => call.path),
      [leasesPath, leasesPath, leasesPath],
    );
    await lease.close();
    await oldest.close();
  });

  it('killSession of a semaphore waiter: it takes the mutex again, queues a new lease in its new session and gets it', async () => {
    const path = uniquePath('loop-lease-vanish');
    const leasesPath = joinPath(path, 'leases');
    const holderClient = clients[0]!;
    // A short session: a half-open old connection is noticed within 2/3 of it.
    const waiterClient = await connectedClient(server, { sessionTimeoutMs: 4000 });
    try {
      const held = await new InterProcessSemaphoreV2(holderClient, path, 1).acquire();
      const traced = tracingClient(waiterClient);
      const semaphore = new InterProcessSemaphoreV2(traced.client, path, 1);
      const waiting = semaphore.acquire().catch((error: unknown) => error);
      await answered(traced, waiterClient, 5); // waiting on its watch of the leases
      const [, firstLease] = await semaphore.getParticipantNodes();
      const sessionBefore = waiterClient.sessionId;
      await killSession(waiterClient, server.connectString);
      await waitFor(
        async () => {
          const leases = await semaphore.getParticipantNodes();
          return (
            waiterClient.sessionId !== sessionBefore &&
            leases.length === 2 &&
            leases[1] !== firstLease
          );
        },
        { message: 'a new lease queued under the new session', timeoutMs: 20_000 },
      );
      await held.close();
      const lease = await waiting;
      assert.ok(lease instanceof Lease, `got a lease, not ${String(lease)}`);
      const owner = (await holderClient.exists(lease.path))?.ephemeralOwner;
      assert.equal(owner, waiterClient.sessionId);
      await lease.close();
      assert.deepEqual(await holderClient.getChildren(leasesPath), [], 'no orphan lease');
      assert.deepEqual(await holderClient.getChildren(joinPath(path, 'locks')), []);
    } finally {
      await closeAll([waiterClient]);
    }
  });
});
