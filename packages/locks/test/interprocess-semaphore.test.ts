import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { InvalidArgumentError, joinPath, type FrameworkClient } from '@zkrecipes/framework';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import {
  IllegalMonitorStateError,
  InterProcessMultiLock,
  InterProcessMutex,
  InterProcessSemaphoreMutex,
  InterProcessSemaphoreV2,
  runInFlow,
  type InterProcessLock,
} from '../src/index.js';
import { tracingClient, watchedPaths } from './helpers.js';

const LEASE_NODE = /^_c_[0-9a-f-]{36}-lease-\d{10}$/;

// One server for the file; the three classes share it.
let server: TestingServer;
let clients: FrameworkClient[];
let a: FrameworkClient;
let b: FrameworkClient;
before(async () => {
  server = await TestingServer.start();
  clients = await Promise.all(Array.from({ length: 5 }, () => connectedClient(server)));
  [a, b] = clients as [FrameworkClient, FrameworkClient];
});
after(async () => {
  await closeAll(clients);
  await server.close();
});

describe('InterProcessSemaphoreV2', () => {
  it("maxLeases holders share it, the next one waits; Curator's locks/ + leases/ layout", async () => {
    const path = uniquePath('semaphore');
    const semaphores = clients.map((client) => new InterProcessSemaphoreV2(client, path, 3));
    const leases = await Promise.all(
      semaphores.slice(0, 3).map((semaphore) => semaphore.acquire()),
    );
    for (const lease of leases) assert.match(lease.nodeName, LEASE_NODE);
    for (const lease of leases) assert.equal(lease.getNodeName(), lease.nodeName); // Curator's name
    assert.equal(await semaphores[3]!.acquire(1, 0), undefined, 'a fourth does not fit');
    const fourth = semaphores[3]!.acquire();
    await waitFor(async () => (await semaphores[0]!.getParticipantNodes()).length === 4, {
      message: 'the fourth waiting with its lease node',
    });
    await leases[1]!.close();
    const lease = await fourth;
    assert.deepEqual((await clients[0]!.getChildren(path)).sort(), ['leases', 'locks']);
    await semaphores[0]!.returnAll([leases[0]!, leases[2]!, lease]);
    assert.deepEqual(await clients[0]!.getChildren(joinPath(path, 'leases')), []);
    assert.deepEqual(await clients[0]!.getChildren(joinPath(path, 'locks')), []);
  });

  it('5 clients competing never hold more than maxLeases at once', async () => {
    const path = uniquePath('competing');
    let inUse = 0;
    let most = 0;
    await Promise.all(
      clients.map(async (client) => {
        const semaphore = new InterProcessSemaphoreV2(client, path, 2);
        for (let i = 0; i < 6; i++) {
          const lease = await semaphore.acquire();
          inUse++;
          most = Math.max(most, inUse);
          await nextTurn();
          inUse--;
          await lease.close();
        }
      }),
    );
    assert.ok(most <= 2, `at most 2 leases at once (saw ${most})`);
    assert.deepEqual(await clients[0]!.getChildren(joinPath(path, 'leases')), []);
  });

  it('acquire(qty, timeoutMs) that cannot get them all returns the ones it took', async () => {
    const path = uniquePath('qty');
    const holder = new InterProcessSemaphoreV2(clients[0]!, path, 3);
    const held = await holder.acquire(2);
    const semaphore = new InterProcessSemaphoreV2(clients[1]!, path, 3);
    assert.equal(await semaphore.acquire(2, 200), undefined);
    assert.equal((await semaphore.getParticipantNodes()).length, 2, 'only the holder leases');
    const one = await semaphore.acquire(1, 1000);
    assert.equal(one?.length, 1);
    await semaphore.returnAll(one);
    await holder.returnAll(held);
    assert.deepEqual(await semaphore.getParticipantNodes(), []);
  });

  it('acquire(1, 0) on a full semaphore answers with one read and leaves no node and no watch', async () => {
    const path = uniquePath('full');
    const lease = await new InterProcessSemaphoreV2(clients[0]!, path, 1).acquire();
    const traced = tracingClient(clients[1]!);
    const semaphore = new InterProcessSemaphoreV2(traced.client, path, 1);
    for (let i = 0; i < 5; i++) assert.equal(await semaphore.acquire(1, 0), undefined);
    assert.deepEqual(
      traced.calls.map((call) => call.op),
      Array.from({ length: 5 }, () => 'getChildren'),
    );
    assert.deepEqual(await watchedPaths(server, clients[1]!), []);
    assert.deepEqual(await semaphore.getParticipantNodes(), [lease.nodeName]);
    await lease.close();
    const free = await semaphore.acquire(1, 0);
    assert.equal(free?.length, 1);
    await semaphore.returnAll(free);
  });

  it('a waiter gets a lease when one is returned; an aborted waiter returns its lease node', async () => {
    const path = uniquePath('wait');
    const lease = await new InterProcessSemaphoreV2(clients[0]!, path, 1, {
      nodeData: Buffer.from('first'),
    }).acquire();
    assert.equal((await lease.getData()).toString(), 'first');
    const semaphore = new InterProcessSemaphoreV2(clients[1]!, path, 1);
    const controller = new AbortController();
    const aborted = semaphore.acquire(1, undefined, { signal: controller.signal });
    await waitFor(async () => (await semaphore.getParticipantNodes()).length === 2, {
      message: 'the waiter created its lease',
    });
    controller.abort(new Error('give up'));
    await assert.rejects(aborted, /give up/);
    assert.deepEqual(await semaphore.getParticipantNodes(), [lease.nodeName]);
    assert.deepEqual(await clients[1]!.getChildren(joinPath(path, 'locks')), []);

    const waiting = semaphore.acquire();
    await waitFor(async () => (await semaphore.getParticipantNodes()).length === 2, {
      message: 'the next waiter created its lease',
    });
    await lease.close();
    await lease.close(); // a second close is a no-op
    const next = await waiting;
    assert.equal(next.lost.aborted, false);
    await next.close();
  });

  it('bad input: maxLeases, qty and timeouts are checked before anything is sent', async () => {
    assert.throws(() => new InterProcessSemaphoreV2(clients[0]!, '/s', 0), InvalidArgumentError);
    assert.throws(() => new InterProcessSemaphoreV2(clients[0]!, 's', 1), InvalidArgumentError);
    const traced = tracingClient(clients[0]!);
    const semaphore = new InterProcessSemaphoreV2(traced.client, uniquePath('bad'), 2);
    await assert.rejects(semaphore.acquire(0), InvalidArgumentError);
    await assert.rejects(semaphore.acquire(1, -5), InvalidArgumentError);
    // More than maxLeases could never be granted: refused, not a wait that never ends.
    await assert.rejects(semaphore.acquire(3), /qty 3 is more than maxLeases 2/);
    await assert.rejects(semaphore.acquire(3, 1000), InvalidArgumentError);
    assert.deepEqual(traced.calls, [], 'nothing sent');
  });

  it('a lease is valid (validUntil ahead) until closed; closing makes it invalid at once', async () => {
    const semaphore = new InterProcessSemaphoreV2(a, uniquePath('valid'), 2);
    const leases = await semaphore.acquire(2);
    for (const lease of leases) {
      assert.equal(lease.isValid(), true);
      assert.ok(lease.validUntil > performance.now() && lease.validUntil <= a.validUntilMs);
    }
    await leases[0]!.close();
    assert.equal(leases[0]!.validUntil, -Infinity);
    assert.equal(leases[0]!.isValid(), false);
    assert.equal(leases[1]!.isValid(), true);
    await semaphore.returnAll(leases);
    assert.equal(leases[1]!.isValid(), false);
  });
});

describe('InterProcessSemaphoreMutex', () => {
  it('excludes other clients, is not reentrant, and may be released from any flow', async () => {
    const path = uniquePath('semaphore-mutex');
    const mutex = new InterProcessSemaphoreMutex(a, path);
    const other = new InterProcessSemaphoreMutex(b, path);
    await runInFlow(async () => {
      assert.equal(await mutex.acquire(), true);
      assert.equal(mutex.lease?.isValid(), true);
      assert.equal(await mutex.acquire(100), false, 'not reentrant, even in one flow');
    });
    assert.equal(await other.acquire(0), false);
    assert.equal(mutex.isAcquiredInThisProcess(), true);
    assert.match(mutex.lease!.nodeName, LEASE_NODE);
    await runInFlow(() => mutex.release()); // another flow may release it
    assert.equal(await other.acquire(0), true);
    await other.release();
    await assert.rejects(other.release(), IllegalMonitorStateError);
  });
});

describe('InterProcessMultiLock', () => {
  it('holds all or nothing: one lock taken elsewhere means none held after the attempt', async () => {
    const root = uniquePath('multi');
    const paths = ['one', 'two', 'three'].map((name) => joinPath(root, name));
    const blocker = new InterProcessMutex(b, paths[1]!);
    await blocker.acquire();
    const multi = new InterProcessMultiLock(a, paths);
    assert.equal(await multi.acquire(200), false);
    for (const path of paths) {
      assert.equal((await a.getChildren(path).catch(() => [])).length, path === paths[1] ? 1 : 0);
    }
    await blocker.release();
    assert.equal(await multi.acquire(), true);
    assert.equal(multi.isAcquiredInThisProcess(), true);
    assert.equal(await new InterProcessMutex(b, paths[2]!).acquire(0), false);
    await multi.release();
    for (const path of paths) assert.deepEqual(await a.getChildren(path), []);
  });

  it('releases in reverse order and reports every failure', async () => {
    const events: string[] = [];
    const fake = (name: string, failRelease = false): InterProcessLock => ({
      acquire: () => {
        events.push(`acquire ${name}`);
        return Promise.resolve(true);
      },
      release: () => {
        events.push(`release ${name}`);
        return failRelease
          ? Promise.reject(new Error(`cannot release ${name}`))
          : Promise.resolve();
      },
      isAcquiredInThisProcess: () => true,
    });
    const multi = new InterProcessMultiLock([fake('a'), fake('b', true), fake('c', true)]);
    await multi.acquire();
    await assert.rejects(multi.release(), AggregateError);
    assert.deepEqual(events, [
      'acquire a',
      'acquire b',
      'acquire c',
      'release c',
      'release b',
      'release a',
    ]);
  });
});
