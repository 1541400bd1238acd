import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ClosedError,
  InvalidArgumentError,
  isNoAuth,
  joinPath,
  Perms,
  type FrameworkClient,
  type UnhandledError,
} from '@zkrecipes/framework';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import {
  IllegalMonitorStateError,
  InterProcessMutex,
  InterProcessReadWriteLock,
  InterProcessSemaphoreV2,
} from '../src/index.js';
import { packetsReceived, tracingClient, watchedPaths, watchersOf } from './helpers.js';

const LOCK_NODE = /^_c_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-lock-\d{10}$/;

describe('InterProcessMutex', () => {
  let server: TestingServer;
  let a: FrameworkClient;
  let b: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    a = await connectedClient(server);
    b = await connectedClient(server);
  });
  after(async () => {
    await closeAll([a, b]);
    await server.close();
  });

  it('queues with a Curator-named ephemeral node under persistent parents; release deletes it', async () => {
    const path = `${uniquePath('mutex')}/nested/lock`;
    const mutex = new InterProcessMutex(a, path);
    assert.equal(await mutex.acquire(), true);
    const [name, ...others] = await a.getChildren(path);
    assert.deepEqual(others, []);
    assert.match(name!, LOCK_NODE);
    assert.equal(mutex.getLockPath(), joinPath(path, name!));
    const nodeStat = await a.exists(joinPath(path, name!));
    assert.equal(nodeStat?.ephemeralOwner, a.sessionId);
    assert.equal((await a.exists(path))?.ephemeralOwner, 0n, 'the parents are persistent');
    assert.equal(mutex.isAcquiredInThisProcess(), true);
    await mutex.release();
    assert.deepEqual(await a.getChildren(path), []);
    assert.equal(mutex.isAcquiredInThisProcess(), false);
    assert.equal(mutex.hold, undefined);
  });

  it('acquire(0) returns false and leaves no node and no watch while another client holds it', async () => {
    const path = uniquePath('try0');
    const holder = new InterProcessMutex(a, path);
    const other = new InterProcessMutex(b, path);
    await holder.acquire();
    try {
      for (let i = 0; i < 20; i++) assert.equal(await other.acquire(0), false);
      assert.deepEqual(await b.getChildren(path), [holder.getLockPath()!.split('/').at(-1)]);
      assert.deepEqual(await watchedPaths(server, b), [], 'no watch of ours on the server');
      assert.equal(other.isAcquiredInThisProcess(), false);
    } finally {
      await holder.release();
    }
    assert.equal(await other.acquire(0), true, 'free again: acquire(0) takes it');
    await other.release();
  });

  it('acquire(timeoutMs) resolves false when the time runs out and removes its node', async () => {
    const path = uniquePath('timeout');
    const holder = new InterProcessMutex(a, path);
    const other = new InterProcessMutex(b, path);
    await holder.acquire();
    try {
      assert.equal(await other.acquire(150), false);
      assert.equal((await b.getChildren(path)).length, 1, 'only the holder is left');
    } finally {
      await holder.release();
    }
  });

  it('timed-out acquires behind one holder leave nothing piling up: one watch in the budget, no listener warning', async () => {
    const path = uniquePath('mutex-given-up');
    const holder = new InterProcessMutex(a, path);
    const waiter = new InterProcessMutex(b, path);
    await holder.acquire();
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on('warning', onWarning);
    try {
      const budgetBefore = b.watchBudget.usedBytes;
      for (let i = 0; i < 15; i++) assert.equal(await waiter.acquire(5), false);
      // At most the holder's node is still watched (the server watch stays until it fires).
      assert.ok(b.watchBudget.usedBytes - budgetBefore < 200, 'one watch, not fifteen');
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(warnings, []);
    } finally {
      process.off('warning', onWarning);
      await holder.release();
    }
  });

  it('an aborted acquire rejects with the reason and removes its node', async () => {
    const path = uniquePath('abort');
    const holder = new InterProcessMutex(a, path);
    const other = new InterProcessMutex(b, path);
    await holder.acquire();
    try {
      const controller = new AbortController();
      const waiting = other.acquire(undefined, { signal: controller.signal });
      await waitFor(async () => (await b.getChildren(path)).length === 2, {
        message: 'the waiter queued',
      });
      const reason = new Error('stop waiting');
      controller.abort(reason);
      await assert.rejects(waiting, (error) => error === reason);
      assert.equal((await b.getChildren(path)).length, 1);
      await assert.rejects(
        other.acquire(undefined, { signal: AbortSignal.abort(reason) }),
        (e) => e === reason,
      );
    } finally {
      await holder.release();
    }
  });

  it('serves waiters in queue order; each watches only the node ahead of it (no herd)', async () => {
    const path = uniquePath('fair');
    const clients = [a, b, await connectedClient(server), await connectedClient(server)];
    try {
      const mutexes = clients.map((client) => new InterProcessMutex(client, path));
      await mutexes[0]!.acquire();
      const order: number[] = [];
      const waiting: Promise<void>[] = [];
      for (let i = 1; i < mutexes.length; i++) {
        waiting.push(
          mutexes[i]!.acquire().then(async () => {
            order.push(i);
            await mutexes[i]!.release();
          }),
        );
        // Queue them one after the other so the queue order is known.
        await waitFor(async () => (await a.getChildren(path)).length === i + 1, {
          message: `waiter ${i} queued`,
        });
      }
      const nodes = await mutexes[0]!.getParticipantNodes();
      assert.equal(nodes.length, 4);
      await waitFor(
        async () => {
          for (let i = 1; i < nodes.length; i++) {
            const watchers = await watchersOf(server, nodes[i - 1]!);
            if (watchers.length !== 1) return false;
          }
          return (await watchersOf(server, path)).length === 0;
        },
        { message: 'every waiter watching exactly its predecessor, nobody the parent' },
      );
      await mutexes[0]!.release();
      await Promise.all(waiting);
      assert.deepEqual(order, [1, 2, 3]);
    } finally {
      await closeAll(clients.slice(2));
    }
  });

  it('pipelines: an uncontended acquire+release is two round trips, acquire(0) against a holder one read', async () => {
    const path = uniquePath('round-trips');
    const traced = tracingClient(a);
    const mutex = new InterProcessMutex(traced.client, path);
    await mutex.acquire(); // the first one creates the parent...
    await mutex.release();
    assert.deepEqual(
      traced.calls.map((call) => call.op),
      // ...so its pipelined read fails (no parent yet) and it reads again rather than assume
      ['create', 'getChildren', 'getChildren', 'delete'],
    );

    const cycles = 50;
    traced.reset();
    const packetsBefore = await packetsReceived(server);
    for (let i = 0; i < cycles; i++) {
      await mutex.acquire();
      await mutex.release();
    }
    const requests = (await packetsReceived(server)) - packetsBefore - 1; // minus mntr's own
    assert.deepEqual(
      traced.calls.slice(0, 3).map((call) => [call.op, call.opensRoundTrip]),
      [
        ['create', true],
        ['getChildren', false], // sent while the create is in flight: same round trip
        ['delete', true],
      ],
    );
    assert.equal(traced.calls.length, 3 * cycles, 'the pipelined read always saw our node');
    assert.equal(traced.roundTrips(), 2 * cycles);
    assert.ok(requests >= 3 * cycles && requests <= 3 * cycles + 2, `server saw ${requests}`);

    const holder = new InterProcessMutex(b, path);
    await holder.acquire();
    try {
      traced.reset();
      const before = await packetsReceived(server);
      for (let i = 0; i < cycles; i++) assert.equal(await mutex.acquire(0), false);
      const tryRequests = (await packetsReceived(server)) - before - 1;
      assert.deepEqual(new Set(traced.calls.map((call) => call.op)), new Set(['getChildren']));
      assert.equal(traced.roundTrips(), cycles);
      assert.ok(tryRequests >= cycles && tryRequests <= cycles + 2, `server saw ${tryRequests}`);
    } finally {
      await holder.release();
    }
  });

  it('pipelineRelease: the delete rides with the next acquire, one round trip per cycle, still exclusive', async () => {
    const path = uniquePath('pipelined');
    const traced = tracingClient(a);
    const mutex = new InterProcessMutex(traced.client, path, { pipelineRelease: true });
    const other = new InterProcessMutex(b, path);
    await mutex.acquire();
    await mutex.release();
    traced.reset();
    const cycles = 50;
    for (let i = 0; i < cycles; i++) {
      await mutex.acquire();
      await mutex.release();
    }
    assert.equal(traced.calls.length, 3 * cycles);
    assert.equal(traced.roundTrips(), cycles, 'delete, create and read travel together');
    // Released for this client's next request at once; for others once the delete is done.
    await waitFor(async () => (await b.getChildren(path)).length === 0, {
      message: 'the last delete applied',
    });
    await mutex.acquire();
    assert.equal(await other.acquire(0), false);
    await mutex.release();
    assert.equal(await other.acquire(1000), true);
    await other.release();
  });

  it("holds carry the lock node's czxid as fencing token, and validUntil/isValid() until released", async () => {
    const path = uniquePath('hold');
    const mutex = new InterProcessMutex(a, path);
    await mutex.acquire();
    const hold = mutex.hold!;
    assert.equal(hold.fencingToken, (await b.exists(hold.lockPath))!.czxid, 'what others read');
    assert.equal(hold.isValid(), true);
    assert.ok(hold.validUntil > performance.now());
    assert.ok(hold.validUntil <= a.validUntilMs, "never beyond the client's own");
    await mutex.release();
    assert.equal(hold.validUntil, -Infinity);
    assert.equal(hold.isValid(), false);
    assert.equal(hold.lost.aborted, false, 'lost stays as it was on release');
  });

  it("withLock keeps fn's outcome when the release fails (NO_AUTH): its value or its error; the release failure goes to unhandledErrors", async () => {
    // Lock paths that let anyone create lock nodes but nobody delete them.
    const paths = [uniquePath('no-delete'), uniquePath('no-delete')];
    for (const path of paths) {
      await a.create(path, {
        acl: [{ perms: Perms.ALL & ~Perms.DELETE, id: { scheme: 'world', id: 'anyone' } }],
      });
    }
    const client = await connectedClient(server);
    const reported: UnhandledError[] = [];
    const subscription = client.unhandledErrors.subscribe((error) => reported.push(error));
    try {
      const [first, second] = paths.map((path) => new InterProcessMutex(client, path));
      assert.equal(await first!.withLock(() => 42), 42);
      const ownError = new Error('fn failed');
      await assert.rejects(
        second!.withLock(() => Promise.reject(ownError)),
        (error) => error === ownError,
      );
      assert.equal(reported.length, 2);
      assert.ok(reported.every(({ error }) => isNoAuth(error)));
      assert.equal(first!.isAcquiredInThisProcess(), false);
    } finally {
      subscription.unsubscribe();
      await client.close(); // its lock nodes go with the session
    }
  });

  it('release() without holding throws IllegalMonitorStateError (code ILLEGAL_MONITOR_STATE)', async () => {
    const mutex = new InterProcessMutex(a, uniquePath('no-hold'));
    await assert.rejects(mutex.release(), (error: unknown) => {
      assert.ok(error instanceof IllegalMonitorStateError);
      assert.equal(error.code, 'ILLEGAL_MONITOR_STATE');
      return true;
    });
    await mutex.acquire();
    await mutex.release();
    await assert.rejects(mutex.release(), /you do not own the lock/);
  });

  it('bad input fails before anything is sent: relative path, negative timeout, bad options', async () => {
    assert.throws(() => new InterProcessMutex(a, 'relative/lock'), InvalidArgumentError);
    assert.throws(() => new InterProcessMutex(a, '/trailing/'), InvalidArgumentError);
    assert.throws(
      () => new InterProcessMutex(a, '/x', { lockData: 'text' as unknown as Uint8Array }),
      InvalidArgumentError,
    );
    const mutex = new InterProcessMutex(a, uniquePath('bad-input'));
    await assert.rejects(mutex.acquire(-1), InvalidArgumentError);
    await assert.rejects(mutex.acquire(Number.NaN), InvalidArgumentError);
    await assert.rejects(
      mutex.acquire(10, { signal: 'x' as unknown as AbortSignal }),
      InvalidArgumentError,
    );
    assert.equal(mutex.isAcquiredInThisProcess(), false);
  });

  it('refuses a lock path another recipe type uses, and leaves nothing behind', async () => {
    const path = uniquePath('foreign');
    const rw = new InterProcessReadWriteLock(b, path);
    await rw.writeLock().acquire();
    try {
      const mutex = new InterProcessMutex(a, path);
      await assert.rejects(mutex.acquire(), /used by an InterProcessReadWriteLock/);
      await assert.rejects(mutex.acquire(0), InvalidArgumentError);
      assert.equal((await a.getChildren(path)).length, 1);
    } finally {
      await rw.writeLock().release();
    }
    const semaphorePath = uniquePath('foreign-semaphore');
    const lease = await new InterProcessSemaphoreV2(b, semaphorePath, 2).acquire();
    try {
      const mutex = new InterProcessMutex(a, semaphorePath);
      await assert.rejects(mutex.acquire(), /used by an InterProcessSemaphoreV2/);
      await assert.rejects(
        new InterProcessReadWriteLock(a, semaphorePath).readLock().acquire(),
        InvalidArgumentError,
      );
    } finally {
      await lease.close();
    }
  });

  it('stores lockData in its node and lists participants in lock order', async () => {
    const path = uniquePath('data');
    const holder = new InterProcessMutex(a, path, { lockData: Buffer.from('worker-1') });
    const waiter = new InterProcessMutex(b, path, { lockData: Buffer.from('worker-2') });
    await holder.acquire();
    const waiting = waiter.acquire();
    await waitFor(async () => (await holder.getParticipantNodes()).length === 2, {
      message: 'the waiter queued',
    });
    const nodes = await waiter.getParticipantNodes();
    const data = await Promise.all(
      nodes.map(async (node) => (await a.getData(node)).data.toString()),
    );
    assert.deepEqual(data, ['worker-1', 'worker-2']);
    await holder.release();
    await waiting;
    await waiter.release();
  });

  it('a client closing under a waiter rejects its acquire with ClosedError', async () => {
    const path = uniquePath('closing');
    const holder = new InterProcessMutex(a, path);
    const client = await connectedClient(server);
    await holder.acquire();
    try {
      // Settle-safe from the start: the rejection may come while close() is still under way.
      const waiting = new InterProcessMutex(client, path).acquire().then(
        () => 'acquired',
        (error: unknown) => error,
      );
      await waitFor(async () => (await watchersOf(server, holder.getLockPath()!)).length === 1, {
        message: 'the waiter watching the holder',
      });
      await client.close();
      assert.ok((await waiting) instanceof ClosedError);
      await waitFor(async () => (await a.getChildren(path)).length === 1, {
        message: 'the closed session took its node along',
      });
    } finally {
      await holder.release();
    }
  });
});
