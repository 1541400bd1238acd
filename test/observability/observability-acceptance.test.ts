// The observability acceptance run: a scripted session on a real ZooKeeper (a contended lock, a
// leader failover, a server restart, 100 queue items, caches, a group) with the OpenTelemetry SDK's
// in-memory reader and span exporter; then every metric has the expected count or a value in
// the expected range. Each client gets its own SDK, so each figure is one client's.
import assert from 'node:assert/strict';
import { filter, firstValueFrom } from 'rxjs';
import { after, before, describe, it } from 'node:test';
import { createFramework, RetryNTimes, type FrameworkClient } from '@zkrecipes/framework';
import { InterProcessMutex, InterProcessSemaphoreV2 } from '@zkrecipes/locks';
import { LeaderLatch } from '@zkrecipes/leader';
import { DistributedQueue, jsonSerializer } from '@zkrecipes/queues';
import { CuratorCache, NodeCache, PathChildrenCache, StartMode } from '@zkrecipes/caches';
import { GroupMember } from '@zkrecipes/group';
import { fourLetterWord, TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { readFileSync } from 'node:fs';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { OtelCapture, scopeKey } from '@zkrecipes/test-support';

function clientWith(server: TestingServer, otel: OtelCapture): FrameworkClient {
  return createFramework({
    connectString: server.connectString,
    sessionTimeoutMs: 15_000,
    retryPolicy: new RetryNTimes({ n: 3, sleepBetweenRetriesMs: 100 }),
    meterProvider: otel.meterProvider,
    tracerProvider: otel.tracerProvider,
  });
}

/** The paths the server holds a watch on for `client`'s session (its `wchc` report). */
async function watchedBy(server: TestingServer, client: FrameworkClient): Promise<string[]> {
  const session = `0x${client.sessionId?.toString(16)}`;
  const paths: string[] = [];
  let ours = false;
  for (const line of (await fourLetterWord(server.host, server.port, 'wchc')).split('\n')) {
    if (line.startsWith('0x')) ours = line.trim() === session;
    else if (ours && line.trim() !== '') paths.push(line.trim());
  }
  return paths;
}

/** `name@version` of the package in packages/<folder>, as its package.json says. */
function packageScope(folder: string): string {
  const manifest = new URL(`../../../../packages/${folder}/package.json`, import.meta.url);
  return scopeKey(JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; version: string });
}

/** Which package reports the metrics whose names start so: each under its own scope. */
const SCOPE_BY_PREFIX: readonly (readonly [string, string])[] = [
  ['db.client.', 'framework'],
  ['zookeeper.client.', 'framework'],
  ['zkrecipes.lock.', 'locks'],
  ['zkrecipes.leader.', 'leader'],
  ['zkrecipes.queue.', 'queues'],
  ['zkrecipes.cache.', 'caches'],
  ['zkrecipes.group.', 'group'],
];

const MUTEX = { 'zkrecipes.recipe': 'InterProcessMutex' };
const LATCH = { 'zkrecipes.recipe': 'LeaderLatch' };
const GROUP = { 'zkrecipes.recipe': 'GroupMember' };
const NODE_CACHE = { 'zkrecipes.recipe': 'NodeCache' };

describe('observability acceptance: a scripted run on a real server', () => {
  let server: TestingServer;
  const otelA = new OtelCapture();
  const otelB = new OtelCapture();
  let a: FrameworkClient;
  let b: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    a = clientWith(server, otelA);
    b = clientWith(server, otelB);
    await a.start();
    await b.start();
    assert.equal(await a.blockUntilConnected({ timeoutMs: timing.ms(10_000) }), true);
    assert.equal(await b.blockUntilConnected({ timeoutMs: timing.ms(10_000) }), true);
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await otelA.shutdown();
    await otelB.shutdown();
    await server?.close();
  });

  it('contended lock, leader failover, server restart, 100 queue items, caches, a group: every metric as expected', async () => {
    // --- A contended lock: A holds; B's acquire(0) is refused, a 100 ms acquire times out,
    // then a waiting acquire gets it once A releases. B still holds it through the restart.
    const lockPath = uniquePath('lock');
    const mutexA = new InterProcessMutex(a, lockPath);
    const mutexB = new InterProcessMutex(b, lockPath);
    assert.equal(await mutexA.acquire(timing.ms(5_000)), true);
    assert.equal(await mutexB.acquire(0), false);
    const timedOutStart = performance.now();
    assert.equal(await mutexB.acquire(100), false);
    const timedOutMs = performance.now() - timedOutStart;
    const waiting = mutexB.acquire();
    await waitFor(async () => (await mutexA.getParticipantNodes()).length === 2, {
      message: 'B queued behind A',
    });
    const releasedAt = performance.now();
    await mutexA.release();
    await waiting;
    const waitedAtLeastMs = performance.now() - releasedAt;

    // --- A semaphore of one lease: A takes it, B's acquire(1, 0) is refused, A gives it back.
    const semaphorePath = uniquePath('semaphore');
    const leaseA = await new InterProcessSemaphoreV2(a, semaphorePath, 1).acquire();
    assert.equal(await new InterProcessSemaphoreV2(b, semaphorePath, 1).acquire(1, 0), undefined);
    await leaseA.close();

    // --- A leader failover: A leads, B waits; A closes and B takes over.
    const latchPath = uniquePath('leader');
    const latchA = new LeaderLatch(a, latchPath, { id: 'a' });
    const latchB = new LeaderLatch(b, latchPath, { id: 'b' });
    await latchA.start();
    await waitFor(() => latchA.isLeader, { message: 'A leads' });
    await latchB.start();
    await waitFor(async () => (await latchB.getParticipants()).length === 2, {
      message: 'B queued',
    });
    // B waits on A's node: only a failover B sees happen (a watch event) has a leaderless time.
    await waitFor(
      async () => (await watchedBy(server, b)).some((path) => path.startsWith(`${latchPath}/`)),
      { message: "B watches A's node" },
    );
    const failoverStart = performance.now();
    await latchA.close();
    await waitFor(() => latchB.isLeader, { message: 'B took over' });
    const failoverMs = performance.now() - failoverStart;
    await latchB.close();

    // --- A cache of five children, built before start() resolves.
    const cachePath = uniquePath('cache');
    for (let i = 0; i < 5; i++) await a.create(`${cachePath}/c${i}`, { createParents: true });
    const cache = new PathChildrenCache(b, cachePath);
    await cache.start(StartMode.BUILD_INITIAL_CACHE);
    const tree = new CuratorCache(a, cachePath);
    await tree.start();
    await firstValueFrom(tree.initialized.pipe(filter(Boolean)));
    await a.create(`${cachePath}/c5`);
    await waitFor(() => cache.getCurrentData().length === 6, { message: 'cache sees c5' });
    await waitFor(() => tree.size === 7, { message: 'CuratorCache sees c5' });
    const [entries] = await otelB.points('zkrecipes.cache.entries', {
      'zkrecipes.recipe': 'PathChildrenCache',
    });
    const [treeEntries] = await otelA.points('zkrecipes.cache.entries', {
      'zkrecipes.recipe': 'CuratorCache',
    });

    // --- A server restart, B holding the lock: SUSPENDED, its lost signal, RECONNECTED.
    const hold = mutexB.hold!;
    await server.stop();
    await waitFor(() => a.connectionState === 'SUSPENDED' && b.connectionState === 'SUSPENDED', {
      message: 'both SUSPENDED',
    });
    assert.equal(hold.lost.aborted, true);
    assert.equal(a.health().ready, false);
    await server.restart();
    await waitFor(
      () => a.connectionState === 'RECONNECTED' && b.connectionState === 'RECONNECTED',
      { timeoutMs: 30_000, message: 'both RECONNECTED' },
    );
    await mutexB.release();

    // --- 100 queue items, put by A, consumed by B (safe mode); the first attempt at item 7
    // fails and is requeued.
    const queuePath = uniquePath('queue');
    const consumed = new Set<number>();
    let failedOnce = false;
    const consumer = new DistributedQueue<number>(b, queuePath, {
      serializer: jsonSerializer<number>(),
      lockPath: `${queuePath}-locks`,
      consumer: (item) => {
        if (item === 7 && !failedOnce) {
          failedOnce = true;
          throw new Error('first attempt at item 7 fails');
        }
        consumed.add(item);
      },
    });
    const producer = new DistributedQueue<number>(a, queuePath, {
      serializer: jsonSerializer<number>(),
    });
    await consumer.start();
    await producer.start();
    for (let i = 0; i < 100; i++) await producer.put(i);
    await waitFor(() => consumed.size === 100, { timeoutMs: 60_000, message: '100 consumed' });
    await waitFor(async () => (await otelB.total('zkrecipes.queue.items.consumed')) === 100, {
      message: 'the consumed events counted',
    });
    const [backlog] = await otelB.points('zkrecipes.queue.backlog');

    // --- A group: A joins, then B; B changes its payload and leaves. Then a second member
    // on client A: both of A's members report the same attributes, so the gauge is their sum.
    const groupPath = uniquePath('group');
    const memberA = new GroupMember(a, groupPath, 'a', Buffer.from('a0'));
    const memberB = new GroupMember(b, groupPath, 'b', Buffer.from('b0'));
    const payloadOf = (member: GroupMember, id: string) =>
      member.getCurrentMembers().get(id)?.toString();
    await memberA.start();
    assert.equal(await memberA.waitForInitialCreate({ timeoutMs: timing.ms(10_000) }), true);
    await memberB.start();
    await waitFor(() => payloadOf(memberA, 'b') === 'b0' && payloadOf(memberB, 'a') === 'a0', {
      message: 'A and B see each other',
    });
    const [membersA] = await otelA.points('zkrecipes.group.members', GROUP);
    const [membersB] = await otelB.points('zkrecipes.group.members', GROUP);
    await memberB.setThisData(Buffer.from('b1'));
    await waitFor(() => payloadOf(memberA, 'b') === 'b1' && payloadOf(memberB, 'b') === 'b1', {
      message: 'A and B see b1',
    });
    await memberB.close();
    await waitFor(() => !memberA.getCurrentMembers().has('b'), { message: 'A sees B leave' });
    const [aloneA] = await otelA.points('zkrecipes.group.members', GROUP);
    const memberA2 = new GroupMember(a, groupPath, 'a2');
    await memberA2.start();
    await waitFor(
      () => memberA.getCurrentMembers().size === 2 && memberA2.getCurrentMembers().has('a'),
      { message: 'a and a2 see each other' },
    );
    const [twoOnA] = await otelA.points('zkrecipes.group.members', GROUP);
    await memberA2.close();
    await waitFor(() => !memberA.getCurrentMembers().has('a2'), { message: 'a sees a2 leave' });
    await memberA.close();

    // --- A NodeCache on B over a node A writes: built before start() resolves, one change,
    // then the node deleted.
    const nodePath = uniquePath('node');
    await a.create(nodePath, { data: Buffer.from('v0') });
    const nodeCache = new NodeCache(b, nodePath);
    await nodeCache.start({ buildInitial: true });
    assert.equal(nodeCache.getCurrentData()?.data?.toString(), 'v0');
    const [nodeEntries] = await otelB.points('zkrecipes.cache.entries', NODE_CACHE);
    await a.setData(nodePath, Buffer.from('v1'));
    await waitFor(() => nodeCache.getCurrentData()?.data?.toString() === 'v1', {
      message: 'NodeCache sees v1',
    });
    await a.delete(nodePath);
    await waitFor(() => nodeCache.getCurrentData() === undefined, {
      message: 'NodeCache sees the delete',
    });
    const [nodeEntriesGone] = await otelB.points('zkrecipes.cache.entries', NODE_CACHE);
    await nodeCache.close();
    await producer.close();
    await consumer.close();
    await cache.close();
    await tree.close();

    // ===== Framework metrics, per client
    for (const [name, otel, client] of [
      ['A', otelA, a],
      ['B', otelB, b],
    ] as const) {
      const changes = (state: string) =>
        otel.total('zookeeper.client.connection.state_changes', {
          'zookeeper.connection.state': state,
        });
      assert.equal(await changes('CONNECTED'), 1, `${name} CONNECTED`);
      assert.equal(await changes('SUSPENDED'), 1, `${name} SUSPENDED`);
      assert.equal(await changes('RECONNECTED'), 1, `${name} RECONNECTED`);
      assert.equal(await changes('LOST'), 0, `${name} LOST`);
      assert.equal(await otel.total('zookeeper.client.reconnects'), 1, `${name} reconnects`);
      assert.equal(await otel.total('zookeeper.client.session.lost'), 0, `${name} lost`);
      const reconnect = otel.spans('zookeeper.client.reconnect');
      assert.equal(reconnect.length, 1, `${name} reconnect spans`);
      assert.equal(reconnect[0]!.attributes['zookeeper.session.new'], false);
      const current = await otel.points('zookeeper.client.connection.state', {
        'zookeeper.connection.state': 'RECONNECTED',
      });
      assert.equal(current[0]?.value, 1, `${name} is RECONNECTED now`);
      const [age] = await otel.points('zookeeper.client.session.age');
      assert.ok(age !== undefined && age.value > 0 && age.value < 600, `${name} session age`);
      const requests = (
        await otel.points('db.client.operation.duration', { 'db.system.name': 'zookeeper' })
      ).filter((point) => point.attributes['error.type'] === undefined);
      const requestCount = requests.reduce((sum, p) => sum + p.count, 0);
      assert.ok(requestCount >= 10, `${name} timed ${requestCount} requests`);
      for (const point of requests) {
        assert.ok(
          point.max! < 10,
          `${name} ${String(point.attributes['db.operation.name'])} max ${point.max} s`,
        );
        assert.equal(point.attributes['server.address'], server.host);
        assert.equal(point.attributes['server.port'], server.port);
      }
      // Each metric under the scope of the package that records it, at that package's version.
      for (const [metric, scope] of await otel.scopes()) {
        const [, folder] = SCOPE_BY_PREFIX.find(([prefix]) => metric.startsWith(prefix)) ?? [];
        assert.ok(folder !== undefined, `${name}: no package reports ${metric}`);
        assert.equal(scope, packageScope(folder), `${name}: the scope of ${metric}`);
      }
      const health = client.health();
      assert.equal(health.ready, true);
      assert.equal(health.suspendedCount, 1);
      assert.equal(health.reconnectedCount, 1);
      assert.equal(health.lostCount, 0);
    }
    // A put 100 items: 100 multis at least (a put is an idempotent write: its create and its
    // witness travel in one multi), plus the lock, latch and cache nodes' creates.
    const requestsOf = (operation: string): Promise<number> =>
      otelA.total('db.client.operation.duration', { 'db.operation.name': operation });
    assert.ok((await requestsOf('multi')) >= 100, `${await requestsOf('multi')} multis`);
    // And one CLIENT span each, under the framework's scope.
    const multis = otelA.spans('multi');
    assert.equal(multis.length, await requestsOf('multi'));
    assert.ok(multis.every((span) => span.kind === SpanKind.CLIENT));
    assert.ok(
      multis.every((span) => scopeKey(span.instrumentationScope) === packageScope('framework')),
    );

    // ===== Locks
    const waitB = (outcome: string) =>
      otelB.points('zkrecipes.lock.acquire.duration', {
        ...MUTEX,
        'zkrecipes.lock.outcome': outcome,
      });
    const [acquiredA] = await otelA.points('zkrecipes.lock.acquire.duration', {
      ...MUTEX,
      'zkrecipes.lock.outcome': 'acquired',
    });
    assert.equal(acquiredA?.count, 1);
    const [timedOut] = await waitB('timed_out');
    assert.equal(timedOut?.count, 1);
    assert.ok(
      timedOut.value >= 0.09 && timedOut.value <= timedOutMs / 1000,
      `timed out after ${timedOut.value} s`,
    );
    const [acquiredB] = await waitB('acquired');
    assert.equal(acquiredB?.count, 1);
    assert.ok(acquiredB.value >= waitedAtLeastMs / 1000, `B waited ${acquiredB.value} s`);
    assert.equal(
      await otelB.total('zkrecipes.lock.try_acquire', {
        ...MUTEX,
        'zkrecipes.lock.outcome': 'timed_out',
      }),
      1,
    );
    assert.equal(await otelA.total('zkrecipes.lock.hold.duration', MUTEX), 1);
    assert.equal(await otelB.total('zkrecipes.lock.hold.duration', MUTEX), 1);
    const [heldB] = await otelB.points('zkrecipes.lock.hold.duration', MUTEX);
    assert.ok(heldB!.value > 0 && heldB!.value < 120, `B held ${heldB!.value} s`);
    assert.equal(await otelB.total('zkrecipes.lock.lost', MUTEX), 1);
    assert.equal(await otelA.total('zkrecipes.lock.lost', MUTEX), 0);
    assert.equal(await otelA.total('zkrecipes.lock.held', MUTEX), 0);
    assert.equal(await otelB.total('zkrecipes.lock.held', MUTEX), 0);
    const lockSpansB = otelB
      .spans('zkrecipes.lock.acquire')
      .filter((s) => s.attributes['zkrecipes.recipe'] === 'InterProcessMutex');
    assert.deepEqual(lockSpansB.map((s) => s.attributes['zkrecipes.lock.outcome']).sort(), [
      'acquired',
      'timed_out',
      'timed_out',
    ]);
    assert.equal(lockSpansB[0]!.attributes['zkrecipes.path'], undefined, 'no path unless opted in');
    assert.equal(scopeKey(lockSpansB[0]!.instrumentationScope), packageScope('locks'));
    assert.ok(lockSpansB.every((span) => span.status.code === SpanStatusCode.UNSET));

    const SEMAPHORE = { 'zkrecipes.recipe': 'InterProcessSemaphoreV2' };
    assert.equal(
      await otelA.total('zkrecipes.lock.acquire.duration', {
        ...SEMAPHORE,
        'zkrecipes.lock.outcome': 'acquired',
      }),
      1,
    );
    assert.equal(await otelA.total('zkrecipes.lock.hold.duration', SEMAPHORE), 1);
    assert.equal(await otelA.total('zkrecipes.lock.held', SEMAPHORE), 0);
    assert.equal(
      await otelB.total('zkrecipes.lock.try_acquire', {
        ...SEMAPHORE,
        'zkrecipes.lock.outcome': 'timed_out',
      }),
      1,
    );

    // ===== Leader
    const transitions = (otel: OtelCapture, event: string) =>
      otel.total('zkrecipes.leader.transitions', { ...LATCH, 'zkrecipes.leader.event': event });
    assert.equal(await transitions(otelA, 'gained'), 1);
    assert.equal(await transitions(otelA, 'lost'), 1);
    assert.equal(await transitions(otelB, 'gained'), 1);
    assert.equal(await transitions(otelB, 'lost'), 1);
    assert.equal(await otelA.total('zkrecipes.leader.leading', LATCH), 0);
    assert.equal(await otelA.total('zkrecipes.leader.term.duration', LATCH), 1);
    assert.equal(await otelA.total('zkrecipes.leader.leaderless.duration', LATCH), 0);
    const [leaderless] = await otelB.points('zkrecipes.leader.leaderless.duration', LATCH);
    assert.equal(leaderless?.count, 1);
    assert.ok(
      leaderless.value >= 0 && leaderless.value <= failoverMs / 1000,
      `leaderless ${leaderless.value} s`,
    );
    assert.equal(otelA.spans('zkrecipes.leader.term').length, 1);
    assert.equal(otelB.spans('zkrecipes.leader.term').length, 1);

    // ===== Queue
    const QUEUE = { 'zkrecipes.recipe': 'DistributedQueue' };
    assert.equal(await otelA.total('zkrecipes.queue.items.put', QUEUE), 100);
    const [puts] = await otelA.points('zkrecipes.queue.put.duration', {
      ...QUEUE,
      'zkrecipes.queue.outcome': 'ok',
    });
    assert.equal(puts?.count, 100);
    assert.ok(puts.max! < 10, `slowest put ${puts.max} s`);
    assert.equal(await otelB.total('zkrecipes.queue.items.consumed', QUEUE), 100);
    assert.equal(
      await otelB.total('zkrecipes.queue.items.redelivered', {
        ...QUEUE,
        'zkrecipes.queue.reason': 'requeue',
      }),
      1,
    );
    assert.equal(
      await otelB.total('zkrecipes.queue.process.duration', {
        ...QUEUE,
        'zkrecipes.queue.outcome': 'ok',
      }),
      100,
    );
    assert.equal(
      await otelB.total('zkrecipes.queue.process.duration', {
        ...QUEUE,
        'zkrecipes.queue.outcome': 'error',
      }),
      1,
    );
    const processed = otelB.spans('zkrecipes.queue.process');
    assert.equal(processed.length, 101);
    const [failedItem, ...moreFailed] = processed.filter(
      (s) => s.status.code === SpanStatusCode.ERROR,
    );
    assert.equal(moreFailed.length, 0);
    assert.equal(failedItem?.attributes['error.type'], 'Error');
    assert.equal(scopeKey(failedItem.instrumentationScope), packageScope('queues'));
    assert.equal(
      await otelB.total('zkrecipes.queue.process.duration', {
        ...QUEUE,
        'zkrecipes.queue.outcome': 'error',
        'error.type': 'Error',
      }),
      1,
    );
    assert.ok(
      backlog !== undefined && backlog.value >= 0 && backlog.value <= 100,
      `backlog ${backlog?.value}`,
    );

    // ===== Cache
    const CACHE = { 'zkrecipes.recipe': 'PathChildrenCache' };
    assert.equal(await otelB.total('zkrecipes.cache.initial_load.duration', CACHE), 1);
    assert.equal(
      await otelB.total('zkrecipes.cache.events', {
        ...CACHE,
        'zkrecipes.cache.event': 'CHILD_ADDED',
      }),
      1,
    );
    assert.equal(entries?.value, 6);
    const TREE = { 'zkrecipes.recipe': 'CuratorCache' };
    assert.equal(treeEntries?.value, 7, 'the root and its six children');
    assert.equal(await otelA.total('zkrecipes.cache.initial_load.duration', TREE), 1);
    assert.equal(
      await otelA.total('zkrecipes.cache.events', {
        ...TREE,
        'zkrecipes.cache.event': 'NODE_CREATED',
      }),
      7,
    );
    assert.equal(
      await otelA.total('zkrecipes.cache.events', {
        ...TREE,
        'zkrecipes.cache.event': 'INITIALIZED',
      }),
      1,
    );
    // NodeCache: the initial read, v1 and the delete are each one NODE_CHANGED.
    assert.equal(await otelB.total('zkrecipes.cache.initial_load.duration', NODE_CACHE), 1);
    assert.equal(
      await otelB.total('zkrecipes.cache.events', {
        ...NODE_CACHE,
        'zkrecipes.cache.event': 'NODE_CHANGED',
      }),
      3,
    );
    assert.equal(nodeEntries?.value, 1);
    assert.equal(nodeEntriesGone?.value, 0);

    // ===== Group
    assert.equal(membersA?.value, 2);
    assert.equal(membersB?.value, 2);
    assert.equal(aloneA?.value, 1);
    assert.equal(twoOnA?.value, 4, "two members on one client: each one's view of 2, summed");
    // A's changes: a and b appear, b1, b leaves (4); a2 appears in and leaves a's view (2);
    // a2's view gets a and a2 (2). B's: a and b appear, b1.
    assert.equal(await otelA.total('zkrecipes.group.changes', GROUP), 8);
    assert.equal(await otelB.total('zkrecipes.group.changes', GROUP), 3);
    assert.equal(await otelA.total('zkrecipes.group.initial_load.duration', GROUP), 2);
    assert.equal(await otelB.total('zkrecipes.group.initial_load.duration', GROUP), 1);
    const [groupLoad] = await otelB.points('zkrecipes.group.initial_load.duration', GROUP);
    assert.ok(groupLoad!.max! < 10, `group initial load ${groupLoad!.max} s`);
  });
});
