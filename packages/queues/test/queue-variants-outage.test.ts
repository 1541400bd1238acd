import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isClosed, type FrameworkClient } from '@zkrecipes/framework';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { assertBetween, connect, isTimeoutError, timed } from '@zkrecipes/test-support';
import {
  DistributedDelayQueue,
  DistributedIdQueue,
  DistributedPriorityQueue,
  stringSerializer,
} from '../src/index.js';

/** Drains an iterator; resolves what it yielded once it ends. */
async function drain(iterator: AsyncIterableIterator<string>): Promise<string[]> {
  const items: string[] = [];
  for await (const item of iterator) items.push(item);
  return items;
}

describe('priority, delay and id queues with the server stopped', () => {
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

  it('timed puts, removes and takes settle in time; closes are prompt; nothing given up is sent later', async () => {
    const path = uniquePath('variants-outage');
    const options = { serializer: stringSerializer() };
    const priority = new DistributedPriorityQueue(client, `${path}/priority`, options);
    const id = new DistributedIdQueue(client, `${path}/id`, options);
    // A consumer waiting on the timer of an item due in an hour, in safe mode.
    const consumed: string[] = [];
    const delay = new DistributedDelayQueue(client, `${path}/delay`, {
      ...options,
      lockPath: `${path}/delay-locks`,
      consumer: (item) => void consumed.push(item),
    });
    await Promise.all([priority.start(), id.start(), delay.start()]);
    await delay.put('later', Date.now() + 3_600_000);
    await waitFor(() => delay.lastMessageCount === 1, { message: 'the delay consumer to list' });

    await server.stop();
    await waitFor(() => !client.isConnected, { message: 'SUSPENDED' });
    // Calls without a timeout or signal wait for the connection, until close ends them.
    const untilClose = [priority.put('cut off', 1), id.put('cut off', 'a')].map((call) =>
      timed(() => call),
    );
    const [pPut, dPut, iPut, removeTimed, removeSignal, removeNow, iterated] = await Promise.all([
      timed(() => priority.put('never', 1, { timeoutMs: 1000 })),
      timed(() => delay.put('never', Date.now(), { signal: AbortSignal.timeout(1000) })),
      timed(() => id.put('never', 'a', { timeoutMs: 1000 })),
      timed(() => id.remove('a', { timeoutMs: 1000 })),
      timed(() => id.remove('a', { signal: AbortSignal.timeout(1000) })),
      timed(() => id.remove('a', { timeoutMs: 0 })),
      timed(() => drain(priority.items({ signal: AbortSignal.timeout(1000) }))),
    ]);
    for (const [label, result] of [
      ['priority put(item, 1, { timeoutMs: 1000 })', pPut],
      ['delay put(item, now, { signal })', dPut],
      ['id put(item, id, { timeoutMs: 1000 })', iPut],
      ['remove(id, { timeoutMs: 1000 })', removeTimed],
      ['remove(id, { signal })', removeSignal],
    ] as const) {
      assert.ok(isTimeoutError(result.error), `${label}: ${String(result.error)}`);
      assertBetween(label, result, 1000, 2000);
    }
    assert.notEqual(removeNow.error, undefined, 'remove(id, { timeoutMs: 0 }) with no connection');
    assertBetween('remove(id, { timeoutMs: 0 })', removeNow, 0, 100);
    assert.deepEqual(iterated.value, []);
    assertBetween('items({ signal })', iterated, 1000, 2000);

    for (const queue of [priority, id, delay]) {
      const closed = await timed(() => queue.close());
      assertBetween(`close() of ${queue.path}`, closed, 0, 1000);
    }
    for (const result of await Promise.all(untilClose)) {
      assert.ok(isClosed(result.error), String(result.error));
    }

    await server.restart();
    await waitFor(() => client.isConnected, { message: 'the reconnect', timeoutMs: 30_000 });
    assert.deepEqual(await client.getChildren(`${path}/priority`), []);
    assert.deepEqual(await client.getChildren(`${path}/id`), []);
    assert.equal((await client.getChildren(`${path}/delay`)).length, 1);
    assert.deepEqual(consumed, []);
  });
});
