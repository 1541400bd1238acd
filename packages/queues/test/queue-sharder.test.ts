import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import {
  isIllegalState,
  isInvalidArgument,
  nodeName,
  type FrameworkClient,
  type IterableObservable,
  type RecipeError,
} from '@zkrecipes/framework';
import { killSession, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { assertBetween, connect, timed } from '@zkrecipes/test-support';
import { DistributedQueue, QueueSharder, stringSerializer } from '../src/index.js';
import { gate } from './gate.js';

const SHARD = /^queue-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Collects the sharder's background failures. */
function failuresOf(sharder: { readonly errors: IterableObservable<RecipeError> }): unknown[] {
  const failures: unknown[] = [];
  sharder.errors.subscribe(({ error }) => failures.push(error));
  return failures;
}

/** Items in each shard, by shard name. */
async function shardSizes(client: FrameworkClient, path: string): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  for (const name of await client.getChildren(path)) {
    sizes.set(name, (await client.exists(`${path}/${name}`))!.numChildren);
  }
  return sizes;
}

describe('QueueSharder', () => {
  let server: TestingServer;
  let clients: FrameworkClient[];
  before(async () => {
    server = await TestingServer.start();
    clients = await Promise.all([1, 2, 3].map(() => connect(server.connectString)));
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server.close();
  });

  it('refuses bad input with InvalidArgumentError before anything is sent', async () => {
    const client = clients[0]!;
    const path = uniquePath('sharder-bad');
    const refused: [string, () => unknown][] = [
      ['leader inside the queue path', () => new QueueSharder(client, path, `${path}/leader`)],
      ['queue inside the leader path', () => new QueueSharder(client, `${path}/q`, path)],
      ['relative path', () => new QueueSharder(client, 'queues', '/leader')],
      [
        'zero threshold',
        () => new QueueSharder(client, path, `${path}-l`, { policies: { newQueueThreshold: 0 } }),
      ],
      [
        'fractional period',
        () => new QueueSharder(client, path, `${path}-l`, { policies: { thresholdCheckMs: 1.5 } }),
      ],
      [
        'more initial shards than the max',
        () =>
          new QueueSharder(client, path, `${path}-l`, {
            policies: { numberOfQueues: 4, maxQueues: 3 },
          }),
      ],
      [
        'misspelt policy',
        () =>
          new QueueSharder(client, path, `${path}-l`, {
            policies: { maxQueue: 3 } as unknown as { maxQueues: number },
          }),
      ],
      [
        'one lock path for every shard',
        () =>
          new QueueSharder(client, path, `${path}-l`, { queueOptions: { lockPath: `${path}-k` } }),
      ],
      [
        'queueOptions beside an allocator',
        () =>
          new QueueSharder(client, path, `${path}-l`, {
            queueAllocator: (c, p) => new DistributedQueue(c, p),
            queueOptions: { concurrency: 2 },
          }),
      ],
      [
        'a bad queue option',
        () => new QueueSharder(client, path, `${path}-l`, { queueOptions: { prefetch: 0 } }),
      ],
      ['not a client', () => new QueueSharder({} as FrameworkClient, path, `${path}-l`)],
    ];
    for (const [label, make] of refused) {
      assert.throws(make, (error) => isInvalidArgument(error), label);
    }
    assert.equal(await client.exists(path), null);
  });

  it('starts numberOfQueues queue-<uuid> shards on an empty path; another sharder adopts them', async () => {
    const path = uniquePath('sharder-initial');
    const policies = { numberOfQueues: 3 };
    await using first = new QueueSharder(clients[0]!, path, `${path}-leader`, { policies });
    assert.equal(first.state, 'LATENT');
    assert.throws(() => first.getQueue(), isIllegalState);
    await first.start();
    assert.equal(first.state, 'STARTED');
    await assert.rejects(first.start(), isIllegalState);
    assert.equal(first.getShardQty(), 3);
    const names = (await clients[0]!.getChildren(path)).sort();
    assert.equal(names.length, 3);
    for (const name of names) assert.match(name, SHARD);
    assert.deepEqual(first.getQueuePaths().map(nodeName).sort(), names);
    assert.ok(names.includes(nodeName(first.getQueue().path)));

    // A second sharder finds the shards and makes none (numberOfQueues is for an empty path).
    await using second = new QueueSharder(clients[1]!, path, `${path}-leader`, {
      policies: { numberOfQueues: 2 },
    });
    await second.start();
    assert.deepEqual(second.getQueuePaths().map(nodeName).sort(), names);
    assert.equal((await clients[0]!.getChildren(path)).length, 3);
    await first.close();
    await first.close();
    assert.equal(first.state, 'CLOSED');
    assert.throws(() => first.getQueue(), isIllegalState);
  });

  it('the leader adds a shard when one reaches newQueueThreshold; getQueue() then prefers the new one', async () => {
    const path = uniquePath('sharder-grow');
    await using sharder = new QueueSharder(clients[0]!, path, `${path}-leader`, {
      policies: { newQueueThreshold: 5, thresholdCheckMs: 50 },
      queueOptions: { serializer: stringSerializer() },
    });
    const failures = failuresOf(sharder);
    await sharder.start();
    await waitFor(() => sharder.isLeader, { message: 'leadership' });
    const [firstPath] = sharder.getQueuePaths();
    for (let i = 0; i < 5; i += 1) await sharder.getQueue().put(`item-${i}`);
    await waitFor(() => sharder.getShardQty() === 2, { message: 'a second shard' });
    assert.equal((await clients[0]!.getChildren(path)).length, 2);
    // The full shard is no longer preferred: every put goes to the new one.
    for (let i = 0; i < 20; i += 1) assert.notEqual(sharder.getQueue().path, firstPath);
    assert.deepEqual(failures, []);
  });

  it('never grows past maxQueues', async () => {
    const path = uniquePath('sharder-max');
    await using sharder = new QueueSharder(clients[0]!, path, `${path}-leader`, {
      policies: { newQueueThreshold: 2, thresholdCheckMs: 20, maxQueues: 3 },
    });
    await sharder.start();
    await waitFor(
      async () => {
        await sharder.getQueue().put(Buffer.from('x'));
        return sharder.getShardQty() === 3;
      },
      { message: 'three shards' },
    );
    // Every shard over the threshold, for 25 more checks: still three.
    for (const shardPath of sharder.getQueuePaths()) {
      for (let i = 0; i < 2; i += 1)
        await clients[0]!.create(`${shardPath}/queue-`, { mode: 'PERSISTENT_SEQUENTIAL' });
    }
    await delay(500);
    assert.equal(sharder.getShardQty(), 3);
    const sizes = await shardSizes(clients[0]!, path);
    assert.equal(sizes.size, 3);
    for (const size of sizes.values()) assert.ok(size >= 2);
  });

  it('items put through getQueue() reach consumers on three clients exactly once, across the shards', async () => {
    const path = uniquePath('sharder-consume');
    const leaderPath = `${path}-leader`;
    const policies = { newQueueThreshold: 10, thresholdCheckMs: 30, maxQueues: 4 };
    const held = gate();
    const received: string[][] = [[], [], []];
    const consumers = clients.map(
      (client, i) =>
        new QueueSharder(client, path, leaderPath, {
          policies,
          queueOptions: {
            serializer: stringSerializer(),
            consumer: async (item) => {
              await held.pass();
              received[i]!.push(item);
            },
          },
        }),
    );
    // The producer starts first: it leads, and grows the shards while the consumers are held.
    await using producer = new QueueSharder(clients[0]!, path, leaderPath, {
      policies,
      queueOptions: { serializer: stringSerializer() },
    });
    await producer.start();
    try {
      await Promise.all(consumers.map((sharder) => sharder.start()));
      let put = 0;
      await waitFor(
        async () => {
          await producer.getQueue().put(`item-${put++}`);
          return producer.getShardQty() === 4;
        },
        { message: 'four shards', timeoutMs: 30_000 },
      );
      for (let i = 0; i < 100; i += 1) await producer.getQueue().put(`item-${put++}`);
      await waitFor(() => consumers.every((sharder) => sharder.getShardQty() === 4), {
        message: 'every consumer on the four shards',
      });
      held.open();
      await waitFor(() => received.flat().length === put, {
        message: `all ${put} items consumed`,
        timeoutMs: 30_000,
      });
      const all = received.flat();
      assert.equal(new Set(all).size, put, 'none twice');
      for (let i = 0; i < put; i += 1) assert.ok(all.includes(`item-${i}`), `item-${i}`);
      const sizes = await shardSizes(clients[0]!, path);
      assert.deepEqual([...sizes.values()], [0, 0, 0, 0]);
    } finally {
      await Promise.all(consumers.map((sharder) => sharder.close()));
    }
  });

  it('session of the leader expired: leadership passes to the other sharder, which grows the shards; both learn the new one', async () => {
    const path = uniquePath('sharder-handover');
    const leaderPath = `${path}-leader`;
    const policies = { newQueueThreshold: 3, thresholdCheckMs: 30 };
    const [clientA, clientB] = clients as [FrameworkClient, FrameworkClient];
    await using a = new QueueSharder(clientA, path, leaderPath, { policies });
    const failures = failuresOf(a);
    await a.start();
    await waitFor(() => a.isLeader, { message: 'A leads' });
    await using b = new QueueSharder(clientB, path, leaderPath, { policies });
    const failuresB = failuresOf(b);
    await b.start();
    assert.equal(b.isLeader, false);

    await killSession(clientA, server.connectString);
    await waitFor(() => b.isLeader, { message: 'B leads', timeoutMs: 20_000 });
    await waitFor(() => clientA.isConnected, { message: 'A reconnected', timeoutMs: 20_000 });
    assert.equal(a.isLeader, false);
    // B is the only one that may add a shard now.
    for (let i = 0; i < 3; i += 1) await b.getQueue().put(Buffer.from(`over-${i}`));
    await waitFor(() => b.getShardQty() === 2 && a.getShardQty() === 2, {
      message: 'both sharders on two shards',
    });
    assert.deepEqual(a.getQueuePaths().sort(), b.getQueuePaths().sort());
    assert.equal((await clientB.getChildren(path)).length, 2);
    assert.deepEqual([...failures, ...failuresB], []);
  });

  it('close() with the server stopped resolves at once', async () => {
    const path = uniquePath('sharder-outage');
    const sharder = new QueueSharder(clients[2]!, path, `${path}-leader`, {
      policies: { numberOfQueues: 2, thresholdCheckMs: 50 },
      queueOptions: { consumer: () => undefined },
    });
    const failures = failuresOf(sharder);
    await sharder.start();
    await waitFor(() => sharder.isLeader, { message: 'leadership' });
    await server.stop();
    await waitFor(() => !clients[2]!.isConnected, { message: 'SUSPENDED' });
    // A few checks meet the outage.
    await delay(200);
    const closed = await timed(() => sharder.close());
    assert.equal(closed.error, undefined);
    assertBetween('close() during the outage', closed, 0, 1000);
    assert.equal(sharder.state, 'CLOSED');
    assert.deepEqual(failures, [], 'a check cut short by the outage is no failure');
  });
});
