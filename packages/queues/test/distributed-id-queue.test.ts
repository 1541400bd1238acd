import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isIllegalState, isInvalidArgument, type FrameworkClient } from '@zkrecipes/framework';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { connect } from '@zkrecipes/test-support';
import { DistributedIdQueue, stringSerializer, type QueueEvent } from '../src/index.js';
import { gate } from './gate.js';

describe('DistributedIdQueue', () => {
  let server: TestingServer;
  let producerClient: FrameworkClient;
  let consumerClient: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    [producerClient, consumerClient] = await Promise.all([
      connect(server.connectString),
      connect(server.connectString),
    ]);
  });
  after(async () => {
    await Promise.all([producerClient.close(), consumerClient.close()]);
    await server.close();
  });

  const producerFor = async (path: string): Promise<DistributedIdQueue<string>> => {
    const producer = new DistributedIdQueue(producerClient, path, {
      serializer: stringSerializer(),
    });
    await producer.start();
    return producer;
  };

  it('100 items with random ids come out in put order (Curator testOrdering)', async () => {
    const path = uniquePath('id-order');
    await using producer = await producerFor(path);
    const received: string[] = [];
    await using consumer = new DistributedIdQueue(consumerClient, path, {
      serializer: stringSerializer(),
      consumer: (item) => void received.push(item),
    });
    await consumer.start();
    const ids = Array.from({ length: 100 }, () => String(Math.random()));
    for (const id of ids) {
      const node = await producer.put(id, id);
      assert.match(node, new RegExp(`^${path}/queue-\\|${id.replace('.', '\\.')}\\|\\d{10}$`));
    }
    await waitFor(() => received.length === 100, { message: 'every item' });
    assert.deepEqual(received, ids);
  });

  it('remove(id) removes every item with that id and resolves how many; / and | are written as _', async () => {
    const path = uniquePath('id-remove');
    await using producer = await producerFor(path);
    for (const [item, id] of [
      ['a1', 'a'],
      ['b1', 'b'],
      ['a2', 'a'],
      ['odd', 'x/y|z'],
      ['a3', 'a'],
      ['b2', 'b'],
    ] as const) {
      await producer.put(item, id);
    }
    assert.ok((await producerClient.getChildren(path)).some((n) => n.startsWith('queue-|x_y_z|')));
    assert.equal(await producer.remove('a'), 3);
    assert.equal(await producer.remove('a'), 0);
    assert.equal(await producer.remove('x/y|z'), 1);
    assert.equal(await producer.remove('nobody'), 0);
    const received: string[] = [];
    await using consumer = new DistributedIdQueue(consumerClient, path, {
      serializer: stringSerializer(),
      consumer: (item) => void received.push(item),
    });
    await consumer.start();
    await waitFor(() => received.length === 2, { message: 'the items left' });
    assert.deepEqual(received, ['b1', 'b2']);
  });

  it('safe mode: remove(id) leaves an item a consumer holds (Curator testDeletingWithLock)', async () => {
    const path = uniquePath('id-locked');
    const lockPath = `${path}-locks`;
    await using producer = await producerFor(path);
    const held = gate();
    const received: string[] = [];
    await using consumer = new DistributedIdQueue(consumerClient, path, {
      serializer: stringSerializer(),
      lockPath,
      consumer: async (item) => {
        received.push(item);
        await held.pass();
      },
    });
    await consumer.start();
    // The producer removes in safe mode too: it takes the item's lock to remove it.
    await using remover = new DistributedIdQueue(producerClient, path, { lockPath });
    await remover.start();
    await producer.put('test', 'id');
    await held.reached;
    assert.equal(await remover.remove('id'), 0);
    held.open();
    await waitFor(async () => (await producerClient.getChildren(path)).length === 0, {
      message: 'the item consumed',
    });
    assert.deepEqual(received, ['test']);
    assert.deepEqual(
      (await producerClient.getChildren(lockPath)).filter((n) => !n.startsWith('zkr-')),
      [],
    );
  });

  it('safe mode: a failed item is requeued with its id, and remove(id) still finds it (Curator testRequeuingWithLock)', async () => {
    const path = uniquePath('id-requeue');
    const lockPath = `${path}-locks`;
    await using producer = await producerFor(path);
    const events: QueueEvent[] = [];
    await using consumer = new DistributedIdQueue(consumerClient, path, {
      serializer: stringSerializer(),
      lockPath,
      consumer: () => {
        throw new Error('always fails');
      },
    });
    consumer.on('event', (event) => void events.push(event));
    await producer.put('test', 'id');
    await consumer.start();
    await waitFor(() => events.some((event) => event.type === 'consumerError'), {
      message: 'a failure',
    });
    const failed = events.find((event) => event.type === 'consumerError');
    assert.ok(failed?.type === 'consumerError' && failed.action === 'requeue');
    assert.match(failed.requeuedAs ?? '', /\/queue-\|id\|\d{10}$/);
    await consumer.close();
    assert.equal(await producer.remove('id'), 1);
    assert.deepEqual(await producerClient.getChildren(path), []);
  });

  it('empty and non-string ids are InvalidArgumentErrors before anything is sent; remove needs start()', async () => {
    const path = uniquePath('id-bad');
    await using producer = await producerFor(path);
    for (const bad of ['', undefined as unknown as string, 5 as unknown as string]) {
      await assert.rejects(producer.put('x', bad), isInvalidArgument, String(bad));
      await assert.rejects(producer.remove(bad), isInvalidArgument, String(bad));
    }
    // A character ZooKeeper refuses in a node name: refused by the path check, still unsent.
    await assert.rejects(producer.put('x', 'nul\u0000'), isInvalidArgument);
    assert.deepEqual(await producerClient.getChildren(path), []);
    const unstarted = new DistributedIdQueue(producerClient, path);
    await assert.rejects(unstarted.remove('a'), isIllegalState);
    await assert.rejects(unstarted.put(Buffer.from('x'), 'a'), isIllegalState);
  });
});
