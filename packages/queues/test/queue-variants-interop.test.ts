import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { JavaPeer, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { connect } from '@zkrecipes/test-support';
import {
  DistributedDelayQueue,
  DistributedIdQueue,
  DistributedPriorityQueue,
  encodeEnvelope,
  stringSerializer,
} from '../src/index.js';
import { delayPrefix } from '../src/delay-order.js';
import { priorityPrefix } from '../src/priority-order.js';

// dist/test/*.test.js -> test/fixtures/*.java in the package's sources.
const peerSource = new URL('../../test/fixtures/CuratorQueuePeer.java', import.meta.url).pathname;

const hex = (text: string): string => Buffer.from(text).toString('hex');
const text = (hexText: string): string => Buffer.from(hexText, 'hex').toString();

// Priorities that show a sign or hex mistake: the extremes, both signs, ties, hex letters.
const PRIORITIES = [5, -3, 0, 2147483647, -2147483648, 42, -100, 5, -1, 10, 0, 255];

/** The items of PRIORITIES (`p<priority>#<index>`) in the order Curator delivers them. */
function priorityOrder(): string[] {
  return PRIORITIES.map((priority, index) => ({ priority, index }))
    .sort((a, b) => a.priority - b.priority || a.index - b.index)
    .map(({ priority, index }) => `p${priority}#${index}`);
}

describe('priority, delay and id queues with Java Curator 5.4', () => {
  let server: TestingServer;
  let peer: JavaPeer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    [peer, client] = await Promise.all([
      JavaPeer.start({ source: peerSource, args: [server.connectString] }),
      connect(server.connectString),
    ]);
  });
  after(async () => {
    await peer.close();
    await client.close();
    await server.close();
  });

  /** Starts a Java consumer, waits for `count` items, stops it: the items, in its order. */
  async function javaConsumes(command: string, path: string, count: number): Promise<string[]> {
    assert.equal(await peer.request(command), 'OK');
    await waitFor(async () => (await peer.request(`dq-count ${path}`)) === `OK ${count}`, {
      message: `Java to consume ${count} items`,
    });
    return (await peer.request(`dq-stop ${path}`)).split(' ').slice(1).map(text);
  }

  it('priority: Java puts mixed priorities (and a putMulti) -> Node takes them in Curator order, same names', async () => {
    const path = uniquePath('interop-pq');
    for (const [index, priority] of PRIORITIES.entries()) {
      const item = hex(`p${priority}#${index}`);
      assert.equal(await peer.request(`pq-put ${path} ${priority} ${item}`), 'OK');
    }
    assert.equal(await peer.request(`pq-putmulti ${path} -7 ${hex('m1')} ${hex('m2')}`), 'OK');
    const names = await client.getChildren(path);
    for (const [index, priority] of PRIORITIES.entries()) {
      const name = priorityPrefix(priority) + String(index).padStart(10, '0');
      assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
      assert.deepEqual(
        (await client.getData(`${path}/${name}`)).data,
        encodeEnvelope([Buffer.from(`p${priority}#${index}`)]),
      );
    }
    const received: string[] = [];
    await using queue = new DistributedPriorityQueue(client, path, {
      serializer: stringSerializer(),
      consumer: (item) => void received.push(item),
    });
    await queue.start();
    await waitFor(() => received.length === PRIORITIES.length + 2, { message: 'every item' });
    const expected = priorityOrder();
    // -7 sorts after -100 and before -3.
    expected.splice(expected.indexOf('p-3#1'), 0, 'm1', 'm2');
    assert.deepEqual(received, expected);
  });

  it('priority: Node puts mixed priorities -> a Java consumer takes them in Curator order (plain and safe mode)', async () => {
    for (const lockPath of ['-', uniquePath('interop-pq-locks')]) {
      const path = uniquePath('interop-pq');
      await using queue = new DistributedPriorityQueue(client, path, {
        serializer: stringSerializer(),
      });
      await queue.start();
      for (const [index, priority] of PRIORITIES.entries()) {
        await queue.put(`p${priority}#${index}`, priority);
      }
      const received = await javaConsumes(
        `pq-consume ${path} ${lockPath} 0`,
        path,
        PRIORITIES.length,
      );
      assert.deepEqual(received, priorityOrder(), `lockPath ${lockPath}`);
      assert.deepEqual(await client.getChildren(path), []);
    }
  });

  it('delay: Java puts mixed due times -> Node takes them in due order, none early', async () => {
    const path = uniquePath('interop-delay');
    const base = Date.now() + 1500;
    // Offsets in put order; one in the past (due at once).
    const offsets = [600, 0, 300, -2000, 900, 150];
    for (const [index, offset] of offsets.entries()) {
      const item = hex(`d${offset}#${index}`);
      assert.equal(await peer.request(`dl-put ${path} ${base + offset} ${item}`), 'OK');
    }
    const names = await client.getChildren(path);
    for (const [index, offset] of offsets.entries()) {
      const name = delayPrefix(base + offset) + String(index).padStart(10, '0');
      assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
    }
    const received: { item: string; atMs: number }[] = [];
    await using queue = new DistributedDelayQueue(client, path, {
      serializer: stringSerializer(),
      consumer: (item) => void received.push({ item, atMs: Date.now() }),
    });
    await queue.start();
    await waitFor(() => received.length === offsets.length, { message: 'every item' });
    const expected = offsets
      .map((offset, index) => ({ offset, index }))
      .sort((a, b) => a.offset - b.offset);
    assert.deepEqual(
      received.map((entry) => entry.item),
      expected.map(({ offset, index }) => `d${offset}#${index}`),
    );
    for (const [i, { atMs }] of received.entries()) {
      assert.ok(atMs >= base + expected[i]!.offset, `${received[i]!.item} taken early`);
    }
  });

  it('delay: Node puts mixed due times -> a Java consumer takes them in due order', async () => {
    const path = uniquePath('interop-delay');
    await using queue = new DistributedDelayQueue(client, path, { serializer: stringSerializer() });
    await queue.start();
    const base = Date.now() + 1000;
    const offsets = [400, -1000, 200, 0, 600];
    for (const [index, offset] of offsets.entries()) {
      await queue.put(`d${offset}#${index}`, base + offset);
    }
    const received = await javaConsumes(`dl-consume ${path} -`, path, offsets.length);
    assert.ok(Date.now() >= base + 600, 'the last item was not taken before its time');
    const expected = offsets
      .map((offset, index) => ({ offset, index }))
      .sort((a, b) => a.offset - b.offset)
      .map(({ offset, index }) => `d${offset}#${index}`);
    assert.deepEqual(received, expected);
  });

  it('id: Java puts with ids -> Node removes one id and takes the rest in put order', async () => {
    const path = uniquePath('interop-id');
    const puts: [string, string][] = [
      ['i1', 'keep'],
      ['i2', 'drop'],
      ['i3', 'x/y|z'],
      ['i4', 'drop'],
      ['i5', 'keep'],
    ];
    for (const [item, id] of puts) {
      assert.equal(await peer.request(`id-put ${path} ${id} ${hex(item)}`), 'OK');
    }
    const names = await client.getChildren(path);
    assert.ok(
      names.some((name) => name.startsWith('queue-|x_y_z|')),
      names.join(', '),
    );
    const received: string[] = [];
    const queue = new DistributedIdQueue(client, path, { serializer: stringSerializer() });
    await queue.start();
    assert.equal(await queue.remove('drop'), 2);
    await queue.close();
    await using consumer = new DistributedIdQueue(client, path, {
      serializer: stringSerializer(),
      consumer: (item) => void received.push(item),
    });
    await consumer.start();
    await waitFor(() => received.length === 3, { message: 'every item left' });
    assert.deepEqual(received, ['i1', 'i3', 'i5']);
  });

  it('id: Node puts with ids -> Java removes one id and its consumer takes the rest in put order', async () => {
    for (const lockPath of ['-', uniquePath('interop-id-locks')]) {
      const path = uniquePath('interop-id');
      await using queue = new DistributedIdQueue(client, path, { serializer: stringSerializer() });
      await queue.start();
      for (const [item, id] of [
        ['i1', 'b'],
        ['i2', 'a'],
        ['i3', 'x/y'],
        ['i4', 'a'],
        ['i5', 'c'],
      ] as const) {
        await queue.put(item, id);
      }
      assert.equal(await peer.request(`id-remove ${path} a`), 'OK 2');
      // Curator's remove compares the id as given with the id as written: it misses x/y.
      assert.equal(await peer.request(`id-remove ${path} x/y`), 'OK 0');
      const received = await javaConsumes(`id-consume ${path} ${lockPath}`, path, 3);
      assert.deepEqual(received, ['i1', 'i3', 'i5'], `lockPath ${lockPath}`);
    }
  });
  it('Java and Node safe-mode consumers share each kind of queue: every item exactly once', async (t) => {
    const kinds = [
      {
        kind: 'pq',
        command: (path: string, lockPath: string) => `pq-consume ${path} ${lockPath} 0`,
        make: (path: string, lockPath?: string, consumer?: (item: string) => void) =>
          new DistributedPriorityQueue(client, path, {
            serializer: stringSerializer(),
            lockPath,
            consumer,
          }),
        put: (queue: unknown, i: number) =>
          (queue as DistributedPriorityQueue<string>).put(`item-${i}`, (i % 9) - 4),
      },
      {
        kind: 'dl',
        command: (path: string, lockPath: string) => `dl-consume ${path} ${lockPath}`,
        make: (path: string, lockPath?: string, consumer?: (item: string) => void) =>
          new DistributedDelayQueue(client, path, {
            serializer: stringSerializer(),
            lockPath,
            consumer,
          }),
        put: (queue: unknown, i: number) =>
          (queue as DistributedDelayQueue<string>).put(`item-${i}`, Date.now() - (i % 7)),
      },
      {
        kind: 'id',
        command: (path: string, lockPath: string) => `id-consume ${path} ${lockPath}`,
        make: (path: string, lockPath?: string, consumer?: (item: string) => void) =>
          new DistributedIdQueue(client, path, {
            serializer: stringSerializer(),
            lockPath,
            consumer,
          }),
        put: (queue: unknown, i: number) =>
          (queue as DistributedIdQueue<string>).put(`item-${i}`, `id-${i % 5}`),
      },
    ];
    const count = 150;
    for (const { kind, command, make, put } of kinds) {
      const path = uniquePath(`interop-shared-${kind}`);
      const lockPath = `${path}-locks`;
      await using producer = make(path);
      await producer.start();
      for (let i = 0; i < count; i += 1) await put(producer, i);
      const seen: string[] = [];
      assert.equal(await peer.request(command(path, lockPath)), 'OK');
      await using node = make(path, lockPath, (item) => void seen.push(item));
      await node.start();
      await waitFor(async () => (await client.getChildren(path)).length === 0, {
        timeoutMs: 30_000,
        message: `an empty ${kind} queue`,
      });
      const javaSeen = (await peer.request(`dq-stop ${path}`)).split(' ').slice(1).map(text);
      t.diagnostic(`${kind}: Node took ${seen.length}, Java ${javaSeen.length}`);
      const all = [...seen, ...javaSeen];
      assert.equal(all.length, count, `${kind}: node ${seen.length}, java ${javaSeen.length}`);
      assert.equal(new Set(all).size, count, kind);
    }
  });
});
