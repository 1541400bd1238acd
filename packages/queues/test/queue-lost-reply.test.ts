// The reply of a queue's write is lost (applied by the server, the reply dropped, the link
// reset; the session lives on): a claim whose reply was lost is still this consumer's item, and
// a put whose reply was lost is queued once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FrameworkClient, RetryNTimes } from '@zkrecipes/framework';
import { FaultProxy, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { connect } from '@zkrecipes/test-support';
import {
  DistributedDelayQueue,
  DistributedIdQueue,
  DistributedPriorityQueue,
  DistributedQueue,
  stringSerializer,
} from '../src/index.js';

const TRIALS = 20;

describe('queues when the reply of their write is lost', () => {
  let server: TestingServer;
  let proxy: FaultProxy;
  let proxied: FrameworkClient;
  let direct: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    proxy = await FaultProxy.start({ targetPort: server.port });
    [proxied, direct] = await Promise.all([
      connect(proxy.connectString, {
        sessionTimeoutMs: 10_000,
        retryPolicy: new RetryNTimes({ n: 10, sleepBetweenRetriesMs: 20 }),
      }),
      connect(server.connectString),
    ]);
  });
  after(async () => {
    await Promise.all([proxied.close(), direct.close()]);
    await proxy.close();
    await server.close();
  });

  /** The next multi (an idempotent write) touching `path` has its reply lost. */
  function loseNextWrite(path: string): Promise<{ err: number }> {
    return proxy.loseReply({ ops: ['multi'], pathPrefix: `${path}/` });
  }

  it("plain DistributedQueue: a claim whose reply was lost is the consumer's item, 20 of 20", async () => {
    const path = uniquePath('lost-claim');
    const received: string[] = [];
    await using producer = new DistributedQueue(direct, path, { serializer: stringSerializer() });
    await producer.start();
    await using consumer = new DistributedQueue(proxied, path, {
      serializer: stringSerializer(),
      consumer: (item) => {
        received.push(item);
      },
    });
    await consumer.start();
    for (let i = 0; i < TRIALS; i++) {
      const lost = loseNextWrite(path);
      await producer.put(`item-${i}`);
      const { err } = await lost;
      assert.equal(err, 0, 'the claim was applied');
      await waitFor(() => received.length === i + 1, {
        message: `item-${i} processed (received: ${received.join(',')})`,
      });
    }
    assert.deepEqual(
      received,
      Array.from({ length: TRIALS }, (_, i) => `item-${i}`),
    );
    assert.deepEqual(await direct.getChildren(path), []);
  });

  it('id, priority and delay queues: a claim whose reply was lost is not lost', async () => {
    const kinds = [
      {
        name: 'id',
        make: (client: FrameworkClient, path: string, consumer?: (item: string) => void) =>
          new DistributedIdQueue(client, path, { serializer: stringSerializer(), consumer }),
        put: (queue: unknown, item: string) => (queue as DistributedIdQueue<string>).put(item, 'x'),
      },
      {
        name: 'priority',
        make: (client: FrameworkClient, path: string, consumer?: (item: string) => void) =>
          new DistributedPriorityQueue(client, path, { serializer: stringSerializer(), consumer }),
        put: (queue: unknown, item: string) =>
          (queue as DistributedPriorityQueue<string>).put(item, 1),
      },
      {
        name: 'delay',
        make: (client: FrameworkClient, path: string, consumer?: (item: string) => void) =>
          new DistributedDelayQueue(client, path, { serializer: stringSerializer(), consumer }),
        put: (queue: unknown, item: string) =>
          (queue as DistributedDelayQueue<string>).put(item, Date.now()),
      },
    ];
    for (const kind of kinds) {
      const path = uniquePath(`lost-claim-${kind.name}`);
      const received: string[] = [];
      await using producer = kind.make(direct, path);
      await producer.start();
      await using consumer = kind.make(proxied, path, (item) => {
        received.push(item);
      });
      await consumer.start();
      for (let i = 0; i < 5; i++) {
        const lost = loseNextWrite(path);
        await kind.put(producer, `${kind.name}-${i}`);
        await lost;
        await waitFor(() => received.length === i + 1, {
          message: `${kind.name}-${i} processed (received: ${received.join(',')})`,
        });
      }
      assert.equal(new Set(received).size, 5, `${kind.name}: ${received.join(',')}`);
    }
  });

  it('a put whose reply was lost is queued once and resolves its path, 20 of 20', async () => {
    const path = uniquePath('lost-put');
    await using producer = new DistributedQueue(proxied, path, { serializer: stringSerializer() });
    await producer.start();
    for (let i = 0; i < TRIALS; i++) {
      const lost = loseNextWrite(path);
      const created = await producer.put(`item-${i}`);
      assert.equal((await lost).err, 0, 'the put was applied');
      const children = await direct.getChildren(path);
      assert.equal(children.length, i + 1, `trial ${i}: ${children.join(',')}`);
      assert.ok(children.map((c) => `${path}/${c}`).includes(created), created);
    }
  });
});
