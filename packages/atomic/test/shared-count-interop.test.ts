// SharedCount between Node and Java Curator 5.4 on one path: the same bytes, each side's
// listeners hear the other's writes, and compare-and-set races lose no update.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { compileJavaPeer, JavaPeer, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { connect } from '@zkrecipes/test-support';
import { SharedCount } from '../src/index.js';

// dist/test/*.test.js -> test/fixtures/*.java in the package's sources.
const peerSource = new URL('../../test/fixtures/CuratorAtomicPeer.java', import.meta.url).pathname;

describe('SharedCount with Java Curator 5.4', () => {
  let server: TestingServer;
  let peer: JavaPeer;
  let clients: FrameworkClient[] = [];
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

  it('a Java-seeded count reads the same in Node and the reverse; each side hears the other set it', async () => {
    const javaSeeded = uniquePath('java-seed');
    assert.equal(await peer.request(`count j1 ${javaSeeded} -123456`), 'OK -123456');
    await using fromJava = new SharedCount(clients[0]!, javaSeeded, 5);
    await fromJava.start();
    assert.equal(fromJava.getCount(), -123456);
    const javaBytes = (await clients[0]!.getData(javaSeeded)).data;
    assert.equal(Buffer.from(javaBytes).toString('hex'), 'fffe1dc0');

    const nodeSeeded = uniquePath('node-seed');
    await using fromNode = new SharedCount(clients[0]!, nodeSeeded, 2_147_483_647);
    await fromNode.start();
    assert.equal(await peer.request(`count j2 ${nodeSeeded} 0`), 'OK 2147483647');

    // Java writes, Node hears; Node writes, Java hears (its listener prints the count).
    const heard: number[] = [];
    fromJava.on('countChanged', (count) => heard.push(count));
    assert.equal(await peer.request('count-set j1 -1'), 'OK');
    await waitFor(() => heard.includes(-1), { message: 'Node heard Java' });
    assert.equal(await peer.request('count-listen j2'), 'OK');
    await fromNode.setCount(-2_147_483_648);
    assert.equal(
      await peer.expectLine(/^EVENT count-changed j2 /),
      'EVENT count-changed j2 -2147483648',
    );
    await waitFor(async () => (await peer.request('count-get j2')) === 'OK -2147483648 1');
    // Curator's writer hears its own write too (as ours does).
    assert.equal(await peer.request('count-set j2 3'), 'OK');
    assert.equal(await peer.expectLine(/^EVENT count-changed j2 3$/), 'EVENT count-changed j2 3');
    await waitFor(() => fromNode.getCount() === 3);
    // A compare-and-set with Java's stale view fails in Java once Node moved on.
    assert.equal(await peer.request('count-try j2 7'), 'OK true');
    await waitFor(() => fromNode.getCount() === 7);
    const stale = fromNode.getVersionedValue();
    assert.equal(await peer.request('count-try j2 8'), 'OK true');
    assert.equal(await fromNode.trySetCount(stale, 9), false);
    assert.equal(fromNode.getCount(), 8);
  });

  it('compare-and-set increments racing from Java and two Node clients lose no update (300 + 2 x 150 = 600)', async () => {
    const path = uniquePath('race');
    assert.equal(await peer.request(`count race ${path} 0`), 'OK 0');
    const counts = clients.map((client) => new SharedCount(client, path, 0));
    try {
      await Promise.all(counts.map((count) => count.start()));
      let nodeLosses = 0;
      const increment = async (count: SharedCount, times: number): Promise<void> => {
        for (let i = 0; i < times; i++) {
          for (;;) {
            const seen = count.getVersionedValue();
            if (await count.trySetCount(seen, seen.value + 1)) break;
            nodeLosses += 1;
          }
        }
      };
      assert.equal(await peer.request('count-incr race 300'), 'OK');
      await Promise.all(counts.map((count) => increment(count, 150)));
      const done = await peer.expectLine(/^EVENT (count-incr-done|error) race/);
      assert.match(done, /^EVENT count-incr-done race \d+$/);
      const javaLosses = Number(done.split(' ').at(-1));
      assert.equal(Buffer.from((await clients[0]!.getData(path)).data).readInt32BE(0), 600);
      await waitFor(() => counts.every((count) => count.getCount() === 600));
      await waitFor(async () => (await peer.request('count-get race')) === 'OK 600 600');
      // The race was real: both sides lost compare-and-sets and retried.
      assert.ok(nodeLosses > 0 && javaLosses > 0, `losses: node ${nodeLosses}, java ${javaLosses}`);
    } finally {
      await Promise.all(counts.map((count) => count.close()));
    }
  });
});
