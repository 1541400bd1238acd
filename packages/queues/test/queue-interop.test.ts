import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { compileJavaPeer, JavaPeer, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { connect } from '@zkrecipes/test-support';
import { DistributedQueue, encodeEnvelope, SimpleDistributedQueue } from '../src/index.js';

// dist/test/*.test.js -> test/fixtures/*.java in the package's sources.
const peerSource = new URL('../../test/fixtures/CuratorQueuePeer.java', import.meta.url).pathname;

/** The peer's item notation: hex, `_` for an empty item. */
const hex = (bytes: Uint8Array): string =>
  bytes.length === 0 ? '_' : Buffer.from(bytes).toString('hex');

// Items that would show any framing or encoding mistake: empty, every byte value, UTF-8, long.
const ITEMS: Buffer[] = [
  Buffer.alloc(0),
  Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
  Buffer.from('grüße, 世界'),
  Buffer.alloc(70_000, 0xab),
];

describe('queues with Java Curator 5.4', () => {
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
    rmSync(await compileJavaPeer(peerSource), { recursive: true, force: true });
  });

  it('Java DistributedQueue put and putMulti -> Node consumer: same bytes, same order', async () => {
    const path = uniquePath('interop-dq');
    for (const item of ITEMS) assert.equal(await peer.request(`dq-put ${path} ${hex(item)}`), 'OK');
    assert.equal(await peer.request(`dq-putmulti ${path} ${ITEMS.map(hex).join(' ')}`), 'OK');
    // Java wrote exactly the envelope we write.
    const names = (await client.getChildren(path)).sort();
    assert.equal(names.length, ITEMS.length + 1);
    for (const [i, item] of ITEMS.entries()) {
      assert.deepEqual((await client.getData(`${path}/${names[i]}`)).data, encodeEnvelope([item]));
    }
    assert.deepEqual(
      (await client.getData(`${path}/${names[ITEMS.length]}`)).data,
      encodeEnvelope(ITEMS),
    );
    const received: Buffer[] = [];
    await using queue = new DistributedQueue(client, path, {
      consumer: (item) => void received.push(item),
    });
    await queue.start();
    await waitFor(() => received.length === ITEMS.length * 2, { message: 'every item' });
    assert.deepEqual(received, [...ITEMS, ...ITEMS]);
  });

  it('Node put and putMulti -> Java DistributedQueue consumer (plain and safe mode)', async () => {
    for (const lockPath of ['-', uniquePath('interop-locks')]) {
      const path = uniquePath('interop-dq');
      await using queue = new DistributedQueue(client, path);
      await queue.start();
      for (const item of ITEMS) await queue.put(item);
      await queue.putMulti(ITEMS);
      assert.equal(await peer.request(`dq-consume ${path} ${lockPath}`), 'OK');
      await waitFor(async () => (await peer.request(`dq-count ${path}`)) === 'OK 8', {
        message: 'Java to consume every item',
      });
      const expected = [...ITEMS, ...ITEMS].map(hex).join(' ');
      assert.equal(await peer.request(`dq-stop ${path}`), `OK ${expected}`);
      assert.deepEqual(await client.getChildren(path), []);
    }
  });

  it('Java and Node safe-mode consumers share a queue: every item exactly once', async () => {
    const path = uniquePath('interop-shared');
    const lockPath = `${path}-locks`;
    await using producer = new DistributedQueue(client, path);
    await producer.start();
    const count = 300;
    for (let i = 0; i < count; i += 1) await producer.put(Buffer.from(`item-${i}`));
    const seen: string[] = [];
    assert.equal(await peer.request(`dq-consume ${path} ${lockPath}`), 'OK');
    await using node = new DistributedQueue(client, path, {
      lockPath,
      consumer: (item) => void seen.push(item.toString()),
    });
    await node.start();
    await waitFor(async () => (await client.getChildren(path)).length === 0, {
      timeoutMs: 30_000,
      message: 'an empty queue',
    });
    const stopped = await peer.request(`dq-stop ${path}`);
    const javaSeen = stopped
      .split(' ')
      .slice(1)
      .map((item) => Buffer.from(item, 'hex').toString());
    const all = [...seen, ...javaSeen];
    assert.equal(all.length, count, `node ${seen.length}, java ${javaSeen.length}`);
    assert.equal(new Set(all).size, count);
  });

  it('SimpleDistributedQueue: Java offers -> Node takes, Node offers -> Java takes', async () => {
    const path = uniquePath('interop-sq');
    const queue = new SimpleDistributedQueue(client, path);
    for (const item of ITEMS)
      assert.equal(await peer.request(`sq-offer ${path} ${hex(item)}`), 'OK');
    for (const item of ITEMS) assert.deepEqual(await queue.take({ timeoutMs: 10_000 }), item);
    for (const item of ITEMS) await queue.offer(item);
    for (const item of ITEMS)
      assert.equal(await peer.request(`sq-take ${path}`), `OK ${hex(item)}`);
    assert.equal(await queue.poll(), null);
    await queue.close();
  });
});
