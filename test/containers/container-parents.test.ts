// Container parents (Curator's creatingParentContainersIfNeeded) across the recipes, on a
// server that looks for empty containers every 100 ms: the parents recipes make are reaped
// once empty, and the recipes keep working after that (Curator's CURATOR-388 was a cache that
// did not).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { PathChildrenCache } from '@zkrecipes/caches';
import { createServiceInstance, ServiceDiscovery } from '@zkrecipes/discovery';
import { GroupMember } from '@zkrecipes/group';
import { LeaderLatch } from '@zkrecipes/leader';
import { InterProcessMutex } from '@zkrecipes/locks';
import { DistributedQueue, SimpleDistributedQueue, stringSerializer } from '@zkrecipes/queues';
import { JavaPeer, TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';

// dist/test/containers/*.test.js -> test/containers/fixtures/*.java in the sources.
const peerSource = new URL(
  '../../../containers/fixtures/CuratorContainersPeer.java',
  import.meta.url,
).pathname;

const CHECK_INTERVAL_MS = 100;

/** startClient's 4 s session and retries, with createFramework's 15 s connection timeout. */
function connect(connectString: string): Promise<FrameworkClient> {
  return startClient(connectString, { connectionTimeoutMs: 15_000 });
}

describe('container parents across the recipes (real server, 100 ms container checks)', () => {
  let server: TestingServer;
  let a: FrameworkClient;
  let b: FrameworkClient;
  before(async () => {
    server = await TestingServer.start({ containerCheckIntervalMs: CHECK_INTERVAL_MS });
    [a, b] = await Promise.all([connect(server.connectString), connect(server.connectString)]);
  });
  after(async () => {
    await Promise.all([a.close(), b.close()]);
    await server.close();
  });

  async function reaped(path: string, what: string): Promise<void> {
    await waitFor(async () => (await a.exists(path)) === null, {
      timeoutMs: timing.ms(10_000),
      message: `${what} (${path}) reaped by the server`,
    });
  }

  it('InterProcessMutex: after 10 acquire/release cycles the lock parent is gone; the mutex then works again', async () => {
    const root = uniquePath('mutex');
    const lockPath = `${root}/locks/orders`;
    const mutex = new InterProcessMutex(a, lockPath);
    const rival = new InterProcessMutex(b, lockPath);
    for (let i = 0; i < 10; i++) {
      const lock = i % 2 === 0 ? mutex : rival;
      assert.equal(await lock.acquire(timing.ms(5_000)), true);
      await lock.release();
    }
    await reaped(lockPath, 'the empty lock node');
    await reaped(root, 'its container parents, level by level');
    // The next acquire makes the parents again.
    assert.equal(await mutex.acquire(timing.ms(5_000)), true);
    assert.equal(await rival.acquire(0), false);
    await mutex.release();
    assert.equal(await rival.acquire(timing.ms(5_000)), true);
    await rival.release();
  });

  it('a mutex whose parents were reaped makes them again; a waiter is then granted on release', async () => {
    const lockPath = `${uniquePath('mutex-wait')}/lock`;
    const holder = new InterProcessMutex(a, lockPath);
    assert.equal(await holder.acquire(timing.ms(5_000)), true);
    await holder.release();
    await reaped(lockPath, 'the lock node');
    const waiter = new InterProcessMutex(b, lockPath);
    assert.equal(await holder.acquire(timing.ms(5_000)), true);
    const waiting = waiter.acquire(timing.ms(10_000));
    await holder.release();
    assert.equal(await waiting, true);
    await waiter.release();
  });

  it('LeaderLatch: the latch parent goes once the last latch closes; a new latch leads there', async () => {
    const latchPath = `${uniquePath('latch')}/election`;
    const first = new LeaderLatch(a, latchPath, { id: 'first' });
    await first.start();
    await waitFor(() => first.hasLeadership(), { timeoutMs: timing.ms(5_000) });
    await first.close();
    await reaped(latchPath, 'the empty latch node');
    await using second = new LeaderLatch(b, latchPath, { id: 'second' });
    await second.start();
    await waitFor(() => second.hasLeadership(), {
      timeoutMs: timing.ms(5_000),
      message: 'a latch started after the reaping leads',
    });
  });

  it('SimpleDistributedQueue keeps working after its emptied parent is reaped', async () => {
    const root = uniquePath('simple-queue');
    const queuePath = `${root}/jobs`;
    const producer = new SimpleDistributedQueue(a, queuePath);
    await using consumer = new SimpleDistributedQueue(b, queuePath);
    await producer.offer(Buffer.from('one'));
    assert.equal((await consumer.take()).toString(), 'one');
    await reaped(root, 'the container parent of the emptied queue');
    // A take waiting while nothing is there, then an offer that makes the parents again.
    const taking = consumer.take({ timeoutMs: timing.ms(10_000) });
    await producer.offer(Buffer.from('two'));
    assert.equal((await taking)?.toString(), 'two');
    await producer.close();
  });

  it('GroupMember: the group path goes once the last member leaves; a later member and its view work there', async () => {
    const group = `${uniquePath('group')}/members`;
    const first = new GroupMember(a, group, 'first');
    await first.start();
    assert.equal(await first.waitForInitialCreate({ timeoutMs: timing.ms(5_000) }), true);
    await first.close();
    await reaped(group, 'the emptied group path');
    await using second = new GroupMember(b, group, 'second', Buffer.from('2'));
    await second.start();
    await using third = new GroupMember(a, group, 'third');
    await third.start();
    await waitFor(() => second.getCurrentMembers().size === 2, {
      timeoutMs: timing.ms(5_000),
      message: 'a member started after the reaping sees the group',
    });
    assert.deepEqual([...second.getCurrentMembers().keys()].sort(), ['second', 'third']);
  });

  it('ServiceDiscovery: the base and service paths are containers as in Curator: reaped once the last instance is unregistered; registering there again works', async () => {
    const base = `${uniquePath('discovery')}/services`;
    const discovery = new ServiceDiscovery(a, base);
    await discovery.start();
    await discovery.registerService(createServiceInstance({ name: 'api', id: 'one', port: 1 }));
    await discovery.close();
    await reaped(`${base}/api`, 'the emptied service path');
    await reaped(base, 'the emptied base path');
    await using again = new ServiceDiscovery(b, base);
    await again.start();
    await again.registerService(createServiceInstance({ name: 'api', id: 'two', port: 2 }));
    const found = await again.queryForInstances('api');
    assert.deepEqual(
      found.map((instance) => instance.id),
      ['two'],
    );
  });

  it('DistributedQueue: the queue node is PERSISTENT and stays; only its parents are containers', async () => {
    const root = uniquePath('queue');
    const queuePath = `${root}/parent/items`;
    const sentinel = `${uniquePath('sentinel')}/box`;
    const taken: string[] = [];
    await using consumer = new DistributedQueue(b, queuePath, {
      serializer: stringSerializer(),
      consumer: (item) => {
        taken.push(item);
      },
    });
    await consumer.start();
    await using producer = new DistributedQueue(a, queuePath, { serializer: stringSerializer() });
    await producer.start();
    await producer.put('a');
    await waitFor(() => taken.length === 1, { timeoutMs: timing.ms(5_000) });
    // Once a container emptied after the queue is reaped, a container check has run since.
    await a.create(`${sentinel}/x`, { createParents: true });
    await a.delete(`${sentinel}/x`);
    await reaped(sentinel, 'the sentinel container');
    assert.notEqual(await a.exists(queuePath), null, 'the queue node stays (PERSISTENT)');
    await producer.put('b');
    await waitFor(() => taken.length === 2, { timeoutMs: timing.ms(5_000) });
    assert.deepEqual(taken, ['a', 'b']);
  });

  it('PathChildrenCache sees its path reaped and children that come after it is made again (CURATOR-388)', async () => {
    const root = uniquePath('cache');
    const cachePath = `${root}/members`;
    await using cache = new PathChildrenCache(b, cachePath);
    const events: string[] = [];
    cache.on('childEvent', (event) => {
      if ('data' in event) events.push(`${event.type} ${event.data.path}`);
    });
    await cache.start();
    await a.create(`${cachePath}/one`, { createParents: true });
    await waitFor(() => cache.getCurrentData().length === 1, { timeoutMs: timing.ms(5_000) });
    await a.delete(`${cachePath}/one`);
    await reaped(cachePath, 'the emptied cache path (a container)');
    await reaped(root, 'its container parent');
    await a.create(`${cachePath}/two`, { createParents: true, data: Buffer.from('2') });
    await waitFor(() => cache.getCurrentData().length === 1, {
      timeoutMs: timing.ms(5_000),
      message: 'the cache sees a child of the re-made path',
    });
    assert.equal(cache.getCurrentData()[0]?.path, `${cachePath}/two`);
    assert.deepEqual(events, [
      `CHILD_ADDED ${cachePath}/one`,
      `CHILD_REMOVED ${cachePath}/one`,
      `CHILD_ADDED ${cachePath}/two`,
    ]);
  });

  it('Curator 5.4 does the same: its mutex parents and its SimpleDistributedQueue path are reaped once empty, and ours and its work on one path', async () => {
    const peer = await JavaPeer.start({ source: peerSource, args: [server.connectString] });
    try {
      const root = uniquePath('java-mutex');
      const lockPath = `${root}/locks/orders`;
      assert.equal(await peer.request(`mutex ${lockPath} 10`), 'OK');
      await reaped(lockPath, "Curator's empty lock node");
      await reaped(root, "Curator's container parents");
      // Ours makes the same path again and Curator uses it, and the reverse.
      const ours = new InterProcessMutex(a, lockPath);
      assert.equal(await ours.acquire(timing.ms(5_000)), true);
      await ours.release();
      assert.equal(await peer.request(`mutex ${lockPath} 2`), 'OK');
      await reaped(root, 'the parents, once both are done');

      const queueRoot = uniquePath('java-queue');
      const queuePath = `${queueRoot}/tasks`;
      assert.equal(await peer.request(`offer ${queuePath} from-java`), 'OK');
      await using ourQueue = new SimpleDistributedQueue(a, queuePath);
      assert.equal((await ourQueue.take()).toString(), 'from-java');
      await reaped(queueRoot, "Curator's queue path and its parent");
      await ourQueue.offer(Buffer.from('from-node'));
      assert.equal(await peer.request(`take ${queuePath}`), 'OK from-node');
      await reaped(queueRoot, 'our queue path and its parent');
    } finally {
      await peer.close();
    }
  });
});
