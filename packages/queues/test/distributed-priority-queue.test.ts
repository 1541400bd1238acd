import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isIllegalState, isInvalidArgument, type FrameworkClient } from '@zkrecipes/framework';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { connect } from '@zkrecipes/test-support';
import { DistributedPriorityQueue, jsonSerializer, type QueueEvent } from '../src/index.js';
import { priorityPrefix } from '../src/priority-order.js';
import { gate } from './gate.js';

describe('DistributedPriorityQueue', () => {
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

  const producerFor = async (path: string): Promise<DistributedPriorityQueue<number>> => {
    const producer = new DistributedPriorityQueue(producerClient, path, {
      serializer: jsonSerializer<number>(),
    });
    await producer.start();
    return producer;
  };

  it('200 items of random priorities: lowest first, equal priorities in put order (Curator testSimple)', async () => {
    const path = uniquePath('priority');
    await using producer = await producerFor(path);
    const puts: { priority: number; index: number }[] = [];
    for (let index = 0; index < 200; index += 1) {
      // A narrow range, so many items share a priority; both signs, and the extremes.
      const priority =
        index === 7 ? -(2 ** 31) : index === 9 ? 2 ** 31 - 1 : Math.floor(Math.random() * 21) - 10;
      puts.push({ priority, index });
      const node = await producer.put(index, priority);
      assert.ok(node.startsWith(`${path}/${priorityPrefix(priority)}`), node);
      assert.match(node, /\d{10}$/);
    }
    const received: number[] = [];
    await using consumer = new DistributedPriorityQueue(consumerClient, path, {
      serializer: jsonSerializer<number>(),
      consumer: (item) => void received.push(item),
    });
    await consumer.start();
    await waitFor(() => received.length === 200, { message: 'every item' });
    const expected = [...puts]
      .sort((a, b) => a.priority - b.priority || a.index - b.index)
      .map((put) => put.index);
    assert.deepEqual(received, expected);
    assert.deepEqual(await producerClient.getChildren(path), []);
  });

  it('a more urgent item put while the consumer holds one is the next taken (Curator testSortingWhileTaking, minItemsBeforeRefresh 0)', async () => {
    for (const lockPath of [undefined, uniquePath('priority-locks')]) {
      const path = uniquePath('priority-sorting');
      await using producer = await producerFor(path);
      for (let i = 0; i < 10; i += 1) await producer.put(i, 10);
      const held = gate();
      const received: number[] = [];
      await using consumer = new DistributedPriorityQueue(consumerClient, path, {
        serializer: jsonSerializer<number>(),
        lockPath,
        consumer: async (item) => {
          received.push(item);
          if (item === 0) await held.pass();
        },
      });
      await consumer.start();
      await held.reached;
      await producer.put(1000, 1);
      held.open();
      await waitFor(() => received.length === 11, { message: 'every item' });
      assert.deepEqual(received, [0, 1000, 1, 2, 3, 4, 5, 6, 7, 8, 9], `lockPath ${lockPath}`);
    }
  });

  it('minItemsBeforeRefresh 3: up to 3 items of a listing go before a more urgent new one (Curator testMinItemsBeforeRefresh)', async () => {
    const path = uniquePath('priority-min');
    await using producer = await producerFor(path);
    for (let i = 0; i < 10; i += 1) await producer.put(i, 10 + i);
    const held = gate();
    const received: number[] = [];
    await using consumer = new DistributedPriorityQueue(consumerClient, path, {
      serializer: jsonSerializer<number>(),
      minItemsBeforeRefresh: 3,
      consumer: async (item) => {
        received.push(item);
        if (item === 0) await held.pass();
      },
    });
    await consumer.start();
    await held.reached;
    await producer.put(1000, 1);
    held.open();
    await waitFor(() => received.length === 11, { message: 'every item' });
    assert.deepEqual(received, [0, 1, 2, 1000, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('items put while the consumer is busy with the first are taken in priority order (Curator testAdditions, minItemsBeforeRefresh 1)', async () => {
    // Curator blocks the first deserialize on a latch until the urgent item is in; our
    // deserialize is synchronous, so the consumer itself waits at a gate instead.
    const path = uniquePath('priority-additions');
    await using producer = await producerFor(path);
    const held = gate();
    const received: number[] = [];
    await using consumer = new DistributedPriorityQueue(consumerClient, path, {
      serializer: jsonSerializer<number>(),
      minItemsBeforeRefresh: 1,
      consumer: async (item) => {
        received.push(item);
        if (received.length === 1) await held.pass();
      },
    });
    // Started on an empty queue: every item is an addition it learns of by its watch.
    await consumer.start();
    // Curator's loop puts ten items at priority 10 and the urgent one (priority 1) right
    // after the first; here it goes in after the third, so plain FIFO order would fail. The
    // gate opens then, so the last seven arrive while the consumer runs.
    for (let i = 0; i < 10; i += 1) {
      await producer.put(i, 10);
      if (i === 0) await held.reached;
      if (i === 2) {
        await producer.put(100, 1);
        held.open();
      }
    }
    await waitFor(() => received.length === 11, { message: 'every item' });
    // The first was taken before the others existed; after it, lowest priority first and
    // equal priorities in put order.
    assert.deepEqual(received, [0, 100, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.deepEqual(await producerClient.getChildren(path), []);
  });

  it('putMulti: the items of one node are taken together at its priority', async () => {
    const path = uniquePath('priority-multi');
    await using producer = await producerFor(path);
    await producer.put(1, 0);
    await producer.putMulti([2, 3, 4], -1);
    await producer.put(5, -1);
    const received: number[] = [];
    await using consumer = new DistributedPriorityQueue(consumerClient, path, {
      serializer: jsonSerializer<number>(),
      consumer: (item) => void received.push(item),
    });
    await consumer.start();
    await waitFor(() => received.length === 5, { message: 'every item' });
    assert.deepEqual(received, [2, 3, 4, 5, 1]);
  });

  it('safe mode: a failed item is requeued at its own priority, and consumed on the next try', async () => {
    const path = uniquePath('priority-requeue');
    const lockPath = `${path}-locks`;
    await using producer = await producerFor(path);
    await producer.put(7, 7);
    const events: QueueEvent[] = [];
    const tries: number[] = [];
    await using consumer = new DistributedPriorityQueue(consumerClient, path, {
      serializer: jsonSerializer<number>(),
      lockPath,
      consumer: (item) => {
        tries.push(item);
        if (tries.length === 1) throw new Error('first try fails');
      },
    });
    consumer.on('event', (event) => void events.push(event));
    await consumer.start();
    await waitFor(() => events.some((event) => event.type === 'consumed'), {
      message: 'the second try',
    });
    const failed = events.find((event) => event.type === 'consumerError');
    assert.ok(failed?.type === 'consumerError' && failed.action === 'requeue');
    assert.ok(failed.requeuedAs?.startsWith(`${path}/${priorityPrefix(7)}`), failed.requeuedAs);
    assert.deepEqual(tries, [7, 7]);
    assert.deepEqual(await producerClient.getChildren(path), []);
  });

  it('bad priorities and options are InvalidArgumentErrors, before anything is sent', async () => {
    const path = uniquePath('priority-bad');
    await using producer = await producerFor(path);
    for (const bad of [1.5, 2 ** 31, Number.NaN, '3' as unknown as number]) {
      await assert.rejects(producer.put(1, bad), isInvalidArgument, String(bad));
      await assert.rejects(producer.putMulti([1], bad), isInvalidArgument, String(bad));
    }
    await assert.rejects(producer.putMulti([], 1), isInvalidArgument);
    assert.deepEqual(await producerClient.getChildren(path), []);
    assert.throws(
      () => new DistributedPriorityQueue(producerClient, path, { minItemsBeforeRefresh: -1 }),
      isInvalidArgument,
    );
    const unstarted = new DistributedPriorityQueue(producerClient, path);
    await assert.rejects(unstarted.put(Buffer.from('x'), 1), isIllegalState);
  });
});
