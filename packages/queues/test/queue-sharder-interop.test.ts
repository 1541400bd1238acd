import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { compileJavaPeer, JavaPeer, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { connect } from '@zkrecipes/test-support';
import { encodeEnvelope, QueueSharder } from '../src/index.js';

// dist/test/*.test.js -> test/fixtures/*.java in the package's sources.
const peerSource = new URL('../../test/fixtures/CuratorSharderPeer.java', import.meta.url).pathname;

const SHARD = /^queue-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ITEM = /^queue-\d{10}$/;

/** The peer's item notation: hex, `_` for an empty item. */
const hex = (text: string): string => Buffer.from(text).toString('hex');
const unhex = (item: string): string => Buffer.from(item, 'hex').toString();

/** The answer's words after `OK`. */
const words = (answer: string): string[] => answer.split(' ').slice(1);

describe('QueueSharder with Java Curator 5.4', () => {
  let server: TestingServer;
  let peer: JavaPeer;
  let clients: FrameworkClient[];
  before(async () => {
    server = await TestingServer.start();
    [peer, ...clients] = await Promise.all([
      JavaPeer.start({ source: peerSource, args: [server.connectString] }),
      connect(server.connectString),
      connect(server.connectString),
    ]);
  });
  after(async () => {
    await peer.close();
    await Promise.all(clients.map((client) => client.close()));
    await server.close();
    rmSync(await compileJavaPeer(peerSource), { recursive: true, force: true });
  });

  it('Java grows the shards and puts; two Node sharders adopt every shard and consume every item once', async () => {
    const path = uniquePath('interop-sharder-j2n');
    const leaderPath = `${path}-leader`;
    assert.equal(await peer.request(`sh-start ${path} ${leaderPath} 5 50 4 produce`), 'OK');
    let put = 0;
    const javaPut = async (): Promise<void> => {
      assert.equal(await peer.request(`sh-put ${path} ${hex(`j-${put++}`)}`), 'OK');
    };
    await waitFor(
      async () => {
        await javaPut();
        return (await peer.request(`sh-qty ${path}`)) === 'OK 3';
      },
      { message: 'Java to grow three shards', timeoutMs: 30_000 },
    );
    // Curator's layout: queue-<uuid> shards, each a DistributedQueue of queue-<seq> items.
    const shards = (await clients[0]!.getChildren(path)).sort();
    assert.equal(shards.length, 3);
    for (const shard of shards) assert.match(shard, SHARD);
    const listed = await Promise.all(
      shards.map(async (shard) => ({
        shard,
        items: await clients[0]!.getChildren(`${path}/${shard}`),
      })),
    );
    for (const name of listed.flatMap(({ items }) => items)) assert.match(name, ITEM);
    // The shard that grew first is full (at least the threshold of 5).
    const full = listed.find(({ items }) => items.length >= 5)!;
    const { data } = await clients[0]!.getData(`${path}/${full.shard}/${full.items[0]}`);
    // Curator's envelope around one item: 0x00010001, 0x01, its length, its bytes, 0x02.
    const item = data.subarray(9, -1);
    assert.match(item.toString(), /^j-\d+$/);
    assert.deepEqual(data, encodeEnvelope([item]));

    const received: string[] = [];
    const sharders = clients.map(
      (client) =>
        new QueueSharder(client, path, leaderPath, {
          policies: { newQueueThreshold: 5, thresholdCheckMs: 50, maxQueues: 4 },
          queueOptions: { consumer: (item) => void received.push(item.toString()) },
        }),
    );
    try {
      await Promise.all(sharders.map((sharder) => sharder.start()));
      // Java leads and may add its fourth shard at any check: the Node sharders follow it.
      let javaPaths: string[] = [];
      await waitFor(
        async () => {
          javaPaths = words(await peer.request(`sh-paths ${path}`));
          return sharders.every(
            (sharder) => sharder.getQueuePaths().sort().join() === javaPaths.join(),
          );
        },
        { message: "the Node sharders to run Java's shards" },
      );
      assert.ok(javaPaths.length >= 3, javaPaths.join());
      for (const sharder of sharders) assert.equal(sharder.isLeader, false);
      // Java goes on putting while Node consumes.
      for (let i = 0; i < 30; i += 1) await javaPut();
      await waitFor(() => received.length === put, {
        message: `all ${put} items consumed`,
        timeoutMs: 30_000,
      });
      assert.equal(new Set(received).size, put, 'none twice');
      for (let i = 0; i < put; i += 1) assert.ok(received.includes(`j-${i}`), `j-${i}`);
    } finally {
      await Promise.all(sharders.map((sharder) => sharder.close()));
      await peer.request(`sh-stop ${path}`);
    }
  });

  it('Node leads, grows the shards and puts; the Java sharder learns every shard and consumes every item once', async () => {
    const path = uniquePath('interop-sharder-n2j');
    const leaderPath = `${path}-leader`;
    await using sharder = new QueueSharder(clients[0]!, path, leaderPath, {
      policies: { newQueueThreshold: 5, thresholdCheckMs: 50, maxQueues: 4 },
    });
    await sharder.start();
    await waitFor(() => sharder.isLeader, { message: 'Node leads' });
    // Java's consumers are held: the shards fill, and Node's leader grows them.
    assert.equal(await peer.request(`sh-start ${path} ${leaderPath} 5 50 4 held`), 'OK');
    let put = 0;
    await waitFor(
      async () => {
        await sharder.getQueue().put(Buffer.from(`n-${put++}`));
        return sharder.getShardQty() === 4;
      },
      { message: 'Node to grow four shards', timeoutMs: 30_000 },
    );
    for (let i = 0; i < 20; i += 1) await sharder.getQueue().put(Buffer.from(`n-${put++}`));
    await waitFor(async () => (await peer.request(`sh-qty ${path}`)) === 'OK 4', {
      message: 'Java to learn the four shards',
    });
    assert.deepEqual(words(await peer.request(`sh-paths ${path}`)), sharder.getQueuePaths().sort());
    assert.equal(await peer.request(`sh-open ${path}`), 'OK');
    await waitFor(async () => (await peer.request(`sh-count ${path}`)) === `OK ${put}`, {
      message: `Java to consume all ${put} items`,
      timeoutMs: 30_000,
    });
    const consumed = words(await peer.request(`sh-stop ${path}`)).map(unhex);
    assert.equal(consumed.length, put);
    assert.equal(new Set(consumed).size, put, 'none twice');
    for (let i = 0; i < put; i += 1) assert.ok(consumed.includes(`n-${i}`), `n-${i}`);
  });
});
