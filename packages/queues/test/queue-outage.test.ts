import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isClosed, type FrameworkClient } from '@zkrecipes/framework';
import { LOOK_ONCE_ANSWER_WAIT_MS } from '@zkrecipes/framework/recipe-support';
import { FaultProxy, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { assertBetween, connect, isTimeoutError, timed } from '@zkrecipes/test-support';
import { DistributedQueue, PRESENCE_PREFIX, SimpleDistributedQueue } from '../src/index.js';

describe('queues with the server unreachable', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    // A session that outlives the outage: the calls below end on their own limits, not on LOST.
    client = await connect(server.connectString, { sessionTimeoutMs: 30_000 });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('server stopped: timed calls answer in time, signals reject in time, closes are prompt, and nothing given up is sent later', async () => {
    const path = uniquePath('outage');
    const simple = new SimpleDistributedQueue(client, `${path}/simple`);
    assert.equal(await simple.poll(), null); // ready: path created, listed, watch armed
    // Never used before the outage: its first call meets it.
    const fresh = new SimpleDistributedQueue(client, `${path}/fresh`);
    const consumed: string[] = [];
    const plain = new DistributedQueue(client, `${path}/plain`, {
      consumer: (item) => void consumed.push(item.toString()),
    });
    const safe = new DistributedQueue(client, `${path}/safe`, {
      lockPath: `${path}/locks`,
      consumer: (item) => void consumed.push(item.toString()),
    });
    const producer = new DistributedQueue(client, `${path}/plain`);
    await Promise.all([plain.start(), safe.start(), producer.start()]);
    // The safe consumer has made its presence node: its close must remove it.
    await safe.put(Buffer.from('before'));
    await waitFor(() => consumed.length === 1, { message: 'the item put before the outage' });
    // A second client, closed during the outage under waiting calls.
    const closing = await connect(server.connectString, { sessionTimeoutMs: 30_000 });
    const closingQueue = new SimpleDistributedQueue(closing, `${path}/simple`);
    assert.equal(await closingQueue.poll(), null);

    await server.stop();
    await waitFor(() => !client.isConnected && !closing.isConnected, { message: 'SUSPENDED' });
    // Calls without a timeout or signal wait for the connection, until a close ends them.
    const untilQueueClose = [
      simple.take(),
      simple.offer(Buffer.from('cut off')),
      producer.put(Buffer.from('cut off')),
    ].map((call) => timed(() => call));
    const untilClientClose = timed(() => closingQueue.take());
    const results = await Promise.all([
      timed(() => simple.poll({ timeoutMs: 2000 })),
      timed(() => simple.take({ timeoutMs: 2000 })),
      timed(() => fresh.poll({ timeoutMs: 2000 })),
      timed(() => simple.take({ signal: AbortSignal.timeout(1000) })),
      timed(() => simple.peek({ signal: AbortSignal.timeout(1000) })),
      timed(() => simple.offer(Buffer.from('never'), { signal: AbortSignal.timeout(1000) })),
      timed(() => producer.put(Buffer.from('never'), { timeoutMs: 2000 })),
      timed(() => simple.poll({ timeoutMs: 0 })),
    ]);
    const [poll, take, freshPoll, takeSignal, peekSignal, offerSignal, put, pollNow] = results;
    for (const [label, result] of [
      ['poll({ timeoutMs: 2000 })', poll],
      ['take({ timeoutMs: 2000 })', take],
      ['a first poll({ timeoutMs: 2000 })', freshPoll],
    ] as const) {
      assert.equal(result.error, undefined, label);
      assert.equal(result.value, null, label);
      assertBetween(label, result, 2000, 3000);
    }
    for (const [label, result] of [
      ['take({ signal })', takeSignal],
      ['peek({ signal })', peekSignal],
      ['offer(item, { signal })', offerSignal],
    ] as const) {
      assert.ok(isTimeoutError(result.error), `${label}: ${String(result.error)}`);
      assertBetween(label, result, 1000, 2000);
    }
    assert.ok(isTimeoutError(put.error), `put: ${String(put.error)}`);
    assertBetween('put(item, { timeoutMs: 2000 })', put, 2000, 3000);
    assert.equal(pollNow.value, null);
    assertBetween('poll({ timeoutMs: 0 })', pollNow, 0, 100);

    for (const queue of [plain, safe, producer, simple, fresh]) {
      const closed = await timed(() => queue.close());
      assertBetween(`close() of ${queue.path}`, closed, 0, 1000);
    }
    for (const result of await Promise.all(untilQueueClose)) {
      assert.ok(isClosed(result.error), String(result.error));
      assert.ok(result.ms < 5000);
    }
    await closing.close();
    const clientClosed = await untilClientClose;
    assert.ok(isClosed(clientClosed.error), String(clientClosed.error));

    await server.restart();
    // A connection made while the server restarts may wait out the handshake watchdog.
    await waitFor(() => client.isConnected, { message: 'the reconnect', timeoutMs: 30_000 });
    // What was given up while waiting for the connection was never sent.
    assert.deepEqual(await client.getChildren(`${path}/simple`), []);
    assert.deepEqual(await client.getChildren(`${path}/plain`), []);
    assert.equal(await client.exists(`${path}/fresh`), null);
    // The safe consumer's presence node goes once the connection is back (guaranteed delete).
    await waitFor(
      async () =>
        (await client.getChildren(`${path}/locks`)).every((n) => !n.startsWith(PRESENCE_PREFIX)),
      { message: 'the presence node to be removed' },
    );
    assert.deepEqual(consumed, ['before']);
  });

  it('an item claimed while the take gave up is not lost: the next take gets it; close waits for a claim in flight', async () => {
    const path = uniquePath('late-claim');
    await using proxy = await FaultProxy.start({ targetPort: server.port });
    const proxied = await connect(proxy.connectString, { sessionTimeoutMs: 20_000 });
    try {
      const producer = new SimpleDistributedQueue(client, path);
      for (const item of ['first', 'second']) await producer.offer(Buffer.from(item));
      const queue = new SimpleDistributedQueue(proxied, path);
      // Listed and read ahead: the next take sends its claim (the delete) and nothing else.
      assert.deepEqual(await queue.peek(), Buffer.from('first'));

      // Each way takes 500 ms: the take gives up while its claim is on its way.
      proxy.delay(500);
      const gaveUp = await timed(() => queue.take({ timeoutMs: 300 }));
      assert.equal(gaveUp.value, null);
      assertBetween('take({ timeoutMs: 300 }) with its claim in flight', gaveUp, 300, 900);
      // The claim's answer arrives late: the item is ours, and goes to the next take first.
      assert.deepEqual(await queue.take(), Buffer.from('first'));

      // A take whose claim the server has applied, its answer still on the way, when the
      // queue closes: it still gets its item.
      const taking = queue.take();
      await waitFor(async () => (await client.getChildren(path)).length === 0, {
        message: 'the server to apply the claim',
      });
      await queue.close();
      assert.deepEqual(await taking, Buffer.from('second'));
      proxy.heal();
    } finally {
      await proxied.close();
    }
  });

  it('server paused (the link still reads as connected): poll({ timeoutMs: 0 }) of a queue not read before answers null within the look-once answer wait, long before the connection is declared dead', async () => {
    const path = uniquePath('paused');
    const queue = new SimpleDistributedQueue(client, path);
    try {
      await server.pause();
      const poll = await timed(() => queue.poll({ timeoutMs: 0 }));
      assert.equal(client.isConnected, true, 'still reads as connected');
      assert.equal(poll.error, undefined, String(poll.error));
      assert.equal(poll.value, null);
      assertBetween('poll({ timeoutMs: 0 })', poll, 0, LOOK_ONCE_ANSWER_WAIT_MS + 500);
    } finally {
      server.resume();
      await queue.close();
    }
  });
});
