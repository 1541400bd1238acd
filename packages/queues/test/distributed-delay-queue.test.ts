import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isInvalidArgument, type FrameworkClient } from '@zkrecipes/framework';
import { TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { connect } from '@zkrecipes/test-support';
import { DistributedDelayQueue, jsonSerializer } from '../src/index.js';
import { delayPrefix } from '../src/delay-order.js';

/** An item and the epoch time it was consumed at. */
interface Consumed {
  readonly item: number;
  readonly atMs: number;
}

describe('DistributedDelayQueue', () => {
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

  const producerFor = async (path: string): Promise<DistributedDelayQueue<number>> => {
    const producer = new DistributedDelayQueue(producerClient, path, {
      serializer: jsonSerializer<number>(),
    });
    await producer.start();
    return producer;
  };

  const consumerFor = (
    path: string,
    received: Consumed[],
    lockPath?: string,
  ): DistributedDelayQueue<number> =>
    new DistributedDelayQueue(consumerClient, path, {
      serializer: jsonSerializer<number>(),
      lockPath,
      consumer: (item) => void received.push({ item, atMs: Date.now() }),
    });

  it('an item is not taken before its time, and is taken right when it comes (Curator testBasic)', async (t) => {
    for (const lockPath of [undefined, uniquePath('delay-locks')]) {
      const path = uniquePath('delay-basic');
      await using producer = await producerFor(path);
      const received: Consumed[] = [];
      await using consumer = consumerFor(path, received, lockPath);
      await consumer.start();
      const dueMs = Date.now() + 800;
      const node = await producer.put(1, dueMs);
      assert.ok(node.startsWith(`${path}/${delayPrefix(dueMs)}`), node);
      await waitFor(() => received.length === 1, { message: 'the item' });
      const late = received[0]!.atMs - dueMs;
      t.diagnostic(`${lockPath === undefined ? 'plain' : 'safe'} mode: taken ${late} ms after due`);
      assert.ok(late >= 0, `taken ${-late} ms early`);
      // No polling: the consumer's timer ends exactly at the due time (a round trip later).
      assert.ok(late < timing.ms(250), `taken ${late} ms late`);
    }
  });

  it('a waiting consumer takes a new item due now at once; one due in 24 days stays (Curator testLateAddition)', async () => {
    const path = uniquePath('delay-late');
    await using producer = await producerFor(path);
    const received: Consumed[] = [];
    const consumer = consumerFor(path, received);
    await consumer.start();
    await producer.put(1, Date.now() + 2 ** 31 - 1);
    await waitFor(() => consumer.lastMessageCount === 1, { message: 'the consumer to list it' });
    const putAt = Date.now();
    await producer.put(2, putAt);
    await waitFor(() => received.length === 1, { message: 'the item due now' });
    assert.equal(received[0]!.item, 2);
    assert.ok(received[0]!.atMs - putAt < timing.ms(500));
    // Waiting on the far item's timer: close is prompt and leaves it queued.
    const started = performance.now();
    await consumer.close();
    assert.ok(performance.now() - started < timing.ms(500));
    assert.equal((await producerClient.getChildren(path)).length, 1);
    assert.deepEqual(
      received.map((entry) => entry.item),
      [2],
    );
  });

  it('items put in random order come out in due order, none early (Curator testSorting and testSimple)', async () => {
    for (const lockPath of [undefined, uniquePath('delay-locks')]) {
      const path = uniquePath('delay-sorting');
      await using producer = await producerFor(path);
      const base = Date.now() + 500;
      const dues = Array.from({ length: 20 }, (_, i) => base + i * 25);
      // Put in a scrambled order; two items share a due time (put order breaks the tie).
      const order = Array.from({ length: 20 }, (_, i) => (i * 7) % 20);
      for (const i of order) await producer.put(i, dues[i]!);
      await producer.put(100, dues[5]!);
      const received: Consumed[] = [];
      await using consumer = consumerFor(path, received, lockPath);
      await consumer.start();
      await waitFor(() => received.length === 21, { message: 'every item' });
      const expected = [...Array.from({ length: 20 }, (_, i) => i)];
      expected.splice(6, 0, 100);
      assert.deepEqual(
        received.map((entry) => entry.item),
        expected,
      );
      for (const { item, atMs } of received) {
        assert.ok(atMs >= dues[item === 100 ? 5 : item]!, `item ${item} taken early`);
      }
    }
  });

  it('putMulti and past due times: taken at once, in due order; a Date works as the time', async () => {
    const path = uniquePath('delay-multi');
    await using producer = await producerFor(path);
    await producer.put(3, new Date(Date.now() - 1000));
    await producer.putMulti([1, 2], Date.now() - 5000);
    const received: Consumed[] = [];
    await using consumer = consumerFor(path, received);
    await consumer.start();
    await waitFor(() => received.length === 3, { message: 'every item' });
    assert.deepEqual(
      received.map((entry) => entry.item),
      [1, 2, 3],
    );
  });

  it('delays that are not finite epoch times are InvalidArgumentErrors, before anything is sent', async () => {
    const path = uniquePath('delay-bad');
    await using producer = await producerFor(path);
    for (const bad of [Number.NaN, Infinity, 0, -1, '5' as unknown as number, new Date('x')]) {
      await assert.rejects(producer.put(1, bad), isInvalidArgument, String(bad));
      await assert.rejects(producer.putMulti([1], bad), isInvalidArgument, String(bad));
    }
    assert.deepEqual(await producerClient.getChildren(path), []);
  });
});
