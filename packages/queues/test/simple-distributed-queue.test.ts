import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  isClosed,
  isInvalidArgument,
  MAX_NODE_DATA_BYTES,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { connect } from '@zkrecipes/test-support';
import { NoSuchElementError, QueueFullError, SimpleDistributedQueue } from '../src/index.js';

async function requestsReceived(server: TestingServer): Promise<number> {
  return Number(/Received: (\d+)/.exec(await server.fourLetter('srvr'))?.[1]);
}

describe('SimpleDistributedQueue', () => {
  let server: TestingServer;
  let a: FrameworkClient;
  let b: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    [a, b] = await Promise.all([connect(server.connectString), connect(server.connectString)]);
  });
  after(async () => {
    await Promise.all([a.close(), b.close()]);
    await server.close();
  });

  it('offer/take across clients: FIFO, raw bytes in qn- nodes, no loss, no duplicate', async () => {
    const path = uniquePath('simple');
    const producer = new SimpleDistributedQueue(a, path);
    await using consumer = new SimpleDistributedQueue(b, path);
    const writing = (async () => {
      for (let i = 0; i < 1000; i += 1)
        assert.equal(await producer.offer(Buffer.from(`${i}`)), true);
    })();
    const taken: number[] = [];
    for (let i = 0; i < 1000; i += 1) taken.push(Number((await consumer.take()).toString()));
    await writing;
    assert.deepEqual(
      taken,
      Array.from({ length: 1000 }, (_, i) => i),
    );
    assert.deepEqual(await a.getChildren(path), []);
    // The bytes are stored as they are, in Curator's qn- names.
    await producer.offer(Buffer.from([0, 1, 255]));
    const [name] = await a.getChildren(path);
    assert.match(name ?? '', /^qn-\d{10}$/);
    assert.deepEqual((await a.getData(`${path}/${name}`)).data, Buffer.from([0, 1, 255]));
    assert.deepEqual(await consumer.take(), Buffer.from([0, 1, 255]));
  });

  it('a take costs two requests (read + delete), not a listing of the whole queue', async (t) => {
    const path = uniquePath('simple-cost');
    const producer = new SimpleDistributedQueue(a, path);
    for (let i = 0; i < 400; i += 1) await producer.offer(Buffer.from([i & 0xff]));
    await using consumer = new SimpleDistributedQueue(b, path);
    assert.deepEqual(await consumer.peek(), Buffer.from([0]));
    const before = await requestsReceived(server);
    for (let i = 0; i < 400; i += 1) await consumer.take();
    const perTake = ((await requestsReceived(server)) - before) / 400;
    assert.ok(perTake <= 2.05, `requests per take: ${perTake}`);
    t.diagnostic(`${perTake.toFixed(2)} requests per take`);
  });

  it('a consumer behind a producer lists ahead while it deletes: FIFO, none lost, none taken twice', async () => {
    // prefetch 2: the background listing goes out every few items, racing the deletes it must
    // not resurrect.
    const path = uniquePath('simple-list-ahead');
    const producer = new SimpleDistributedQueue(a, path);
    for (let i = 0; i < 100; i += 1) await producer.offer(Buffer.from(`${i}`));
    await using consumer = new SimpleDistributedQueue(b, path, { prefetch: 2 });
    const writing = (async () => {
      for (let i = 100; i < 500; i += 1) await producer.offer(Buffer.from(`${i}`));
    })();
    const taken: number[] = [];
    for (let i = 0; i < 500; i += 1) taken.push(Number((await consumer.take()).toString()));
    await writing;
    assert.deepEqual(
      taken,
      Array.from({ length: 500 }, (_, i) => i),
    );
    assert.equal(await consumer.poll(), null);
    assert.deepEqual(await a.getChildren(path), []);
  });

  it('a waiting take does not list an unchanged empty queue again: it waits for the watch', async () => {
    const path = uniquePath('simple-no-relist');
    await using queue = new SimpleDistributedQueue(a, path);
    assert.equal(await queue.poll(), null); // lists the queue and arms the children watch
    const before = await requestsReceived(server);
    for (let i = 0; i < 5; i += 1) assert.equal(await queue.take({ timeoutMs: 20 }), null);
    assert.ok((await requestsReceived(server)) - before <= 1, 'no listing per take');
    const waiting = queue.take();
    await new SimpleDistributedQueue(b, path).offer(Buffer.from('late'));
    assert.deepEqual(await waiting, Buffer.from('late'));
  });

  it('poll, peek, element and remove on empty and non-empty queues', async () => {
    const path = uniquePath('simple-ops');
    await using queue = new SimpleDistributedQueue(a, path);
    assert.equal(await queue.poll(), null);
    assert.equal(await queue.peek(), null);
    await assert.rejects(queue.element(), NoSuchElementError);
    await assert.rejects(queue.remove(), (error: unknown) => {
      assert.ok(error instanceof NoSuchElementError);
      assert.equal(error.code, 'NO_SUCH_ELEMENT');
      assert.match(error.message, /queue \/simple-ops-\w+ is empty/);
      return true;
    });
    // Another client's offer is seen at once: an empty local view is always re-checked.
    await new SimpleDistributedQueue(b, path).offer(Buffer.from('one'));
    assert.deepEqual(await queue.peek(), Buffer.from('one'));
    assert.deepEqual(await queue.element(), Buffer.from('one'));
    await queue.offer(Buffer.from('two'));
    assert.deepEqual(await queue.remove(), Buffer.from('one'));
    assert.deepEqual(await queue.poll(), Buffer.from('two'));
    assert.equal(await queue.poll(), null);
  });

  it('take waits for an item; with timeoutMs it resolves null; abort rejects; close ends waits', async () => {
    const path = uniquePath('simple-wait');
    await using queue = new SimpleDistributedQueue(a, path);
    const started = performance.now();
    assert.equal(await queue.take({ timeoutMs: 150 }), null);
    assert.equal(await queue.poll({ timeoutMs: 50 }), null);
    assert.ok(performance.now() - started >= 190);
    const waiting = queue.take();
    await b.exists(path);
    await new SimpleDistributedQueue(b, path).offer(Buffer.from('late'));
    assert.deepEqual(await waiting, Buffer.from('late'));
    const controller = new AbortController();
    const aborted = assert.rejects(queue.take({ signal: controller.signal }), /enough/);
    controller.abort(new Error('enough'));
    await aborted;
    const closing = new SimpleDistributedQueue(b, path);
    const pending = assert.rejects(closing.take(), isClosed);
    await waitFor(async () => (await a.exists(path)) !== null, { message: 'the path' });
    await b.exists(path);
    await closing.close();
    await pending;
    await assert.rejects(closing.take(), isClosed);
  });

  it('after close every call rejects with ClosedError and sends nothing', async () => {
    const path = uniquePath('simple-closed');
    const queue = new SimpleDistributedQueue(a, path);
    await queue.offer(Buffer.from('kept'));
    await queue.close();
    await queue.close(); // twice is a no-op
    const calls: (() => Promise<unknown>)[] = [
      () => queue.offer(Buffer.from('after close')),
      () => queue.take(),
      () => queue.take({ timeoutMs: 10 }),
      () => queue.poll(),
      () => queue.peek(),
      () => queue.element(),
      () => queue.remove(),
    ];
    for (const call of calls) await assert.rejects(call(), isClosed);
    // The item is still there, alone: nothing was taken, nothing written.
    const children = await a.getChildren(path);
    assert.equal(children.length, 1);
    assert.deepEqual((await a.getData(`${path}/${children[0]}`)).data, Buffer.from('kept'));
  });

  it('concurrent takers on several clients share the items: each taken exactly once', async () => {
    const path = uniquePath('simple-shared');
    const producer = new SimpleDistributedQueue(a, path);
    for (let i = 0; i < 300; i += 1) await producer.offer(Buffer.from(String(i)));
    const takers = [a, a, b, b].map((client) => new SimpleDistributedQueue(client, path));
    const got = await Promise.all(
      takers.map(async (taker) => {
        const mine: number[] = [];
        for (;;) {
          const item = await taker.poll();
          if (item === null) return mine;
          mine.push(Number(item.toString()));
        }
      }),
    );
    const all = got.flat();
    assert.equal(all.length, 300);
    assert.equal(new Set(all).size, 300);
    await Promise.all(takers.map((taker) => taker.close()));
  });

  it('rejects what would hurt: oversized or non-byte items, a path of another recipe, past hardMaxItems', async () => {
    const path = uniquePath('simple-bad');
    const queue = new SimpleDistributedQueue(a, path, { hardMaxItems: 2 });
    await assert.rejects(
      queue.offer(Buffer.alloc(MAX_NODE_DATA_BYTES + 1)),
      new RegExp(
        `queue item is ${MAX_NODE_DATA_BYTES + 1} bytes; the limit is ${MAX_NODE_DATA_BYTES} bytes per node`,
      ),
    );
    await assert.rejects(queue.offer('text' as unknown as Buffer), (error: unknown) => {
      assert.ok(isInvalidArgument(error));
      assert.match(
        String(error),
        /offer\(\) takes a Buffer or Uint8Array; got "text" \(a string\)/,
      );
      return true;
    });
    await queue.offer(Buffer.from('1'));
    await queue.offer(Buffer.from('2'));
    await assert.rejects(queue.offer(Buffer.from('3')), QueueFullError);
    assert.equal((await a.getChildren(path)).length, 2);

    const taken = uniquePath('simple-owned');
    await a.create(`${taken}/queue-`, { mode: 'PERSISTENT_SEQUENTIAL', createParents: true });
    const wrong = new SimpleDistributedQueue(a, taken);
    await assert.rejects(wrong.take(), /"queue-0000000000" is a DistributedQueue node/);
    await assert.rejects(wrong.offer(Buffer.from('x')), /is used by another recipe/);
    assert.throws(() => new SimpleDistributedQueue(a, 'relative'), isInvalidArgument);
    assert.throws(() => new SimpleDistributedQueue(a, path, { prefetch: 0 }), /prefetch/);
  });

  it('ignores foreign children it cannot parse', async () => {
    const path = uniquePath('simple-foreign');
    await a.create(`${path}/notes`, { createParents: true });
    await using queue = new SimpleDistributedQueue(a, path);
    await queue.offer(Buffer.from('x'));
    assert.deepEqual(await queue.take(), Buffer.from('x'));
    assert.equal(await queue.poll(), null);
    assert.deepEqual(await a.getChildren(path), ['notes']);
  });
});
