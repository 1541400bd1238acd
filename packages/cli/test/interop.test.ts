// `zkrecipes inspect` on nodes made by real Apache Curator 5.4 (Debian's
// libcurator-recipes-java), run by fixtures/CuratorCliPeer.java: same layouts, same decode.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { InterProcessMutex } from '@zkrecipes/locks';
import { JavaPeer, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import { inspectJson, sessionOf } from './helpers.js';

// dist/test/interop.test.js -> test/fixtures/*.java in the package's sources.
const peerSource = new URL('../../test/fixtures/CuratorCliPeer.java', import.meta.url).pathname;

interface Node {
  name: string;
  sessionId: string;
  data: string;
}

describe('zkrecipes inspect on Java Curator 5.4 recipes', () => {
  let server: TestingServer;
  let peer: JavaPeer;
  let client: FrameworkClient;
  const childCount = async (path: string): Promise<number> =>
    (await client.getChildren(path).catch(() => [])).length;

  before(async () => {
    server = await TestingServer.start();
    peer = await JavaPeer.start({ source: peerSource, args: [server.connectString] });
    client = await connectedClient(server);
  });
  after(async () => {
    await closeAll([client]);
    await peer.close();
    await server.close();
  });

  it('decodes a mutex held by Java with a Node process waiting', async () => {
    const path = uniquePath('cli-java-mutex');
    await peer.request(`mutex ${path}`);
    await peer.expectLine(new RegExp(`^EVENT mutex ${path}$`));
    const waiter = new InterProcessMutex(client, path, { lockData: Buffer.from('node-waiter') });
    const abort = new AbortController();
    const waiting = waiter.acquire(undefined, { signal: abort.signal });
    await waitFor(async () => (await childCount(path)) === 2);

    const out = await inspectJson(server, path);
    assert.equal(out.kind, 'mutex');
    const holder = out.holder as Node;
    assert.match(holder.name, /^_c_[0-9a-f-]{36}-lock-\d{10}$/);
    assert.notEqual(holder.sessionId, sessionOf(client));
    assert.deepEqual(
      (out.waiters as Node[]).map((w) => [w.sessionId, w.data]),
      [[sessionOf(client), 'node-waiter']],
    );
    abort.abort();
    await assert.rejects(waiting);
  });

  it('decodes a LeaderLatch: the leader id and the participants in order', async () => {
    const path = uniquePath('cli-java-latch');
    await peer.request(`latch ${path} java-1`);
    await waitFor(async () => (await childCount(path)) === 1);
    await peer.request(`latch ${path} java-2`);
    await waitFor(async () => (await childCount(path)) === 2);

    const out = await inspectJson(server, path);
    assert.equal(out.kind, 'leader-latch');
    assert.equal((out.leader as Node).data, 'java-1');
    assert.deepEqual(
      (out.participants as Node[]).map((p) => p.data),
      ['java-1', 'java-2'],
    );
  });

  it('decodes a LeaderSelector: the leader is the lock holder, its id the data', async () => {
    const path = uniquePath('cli-java-selector');
    // start() queues in the background: wait for the first node so the order is known.
    await peer.request(`selector ${path} java-leader`);
    await waitFor(async () => (await childCount(path)) === 1);
    await peer.request(`selector ${path} java-follower`);
    await waitFor(async () => (await childCount(path)) === 2);

    const out = await inspectJson(server, path);
    assert.equal(out.kind, 'mutex');
    assert.equal((out.holder as Node).data, 'java-leader');
    assert.deepEqual(
      (out.waiters as Node[]).map((w) => w.data),
      ['java-follower'],
    );
  });

  it('decodes a DistributedQueue: depth, bytes and the oldest item out of its envelope', async () => {
    const path = uniquePath('cli-java-queue');
    await peer.request(`queue-put ${path} first item`);
    await peer.request(`queue-put ${path} second`);

    const out = await inspectJson(server, path);
    assert.equal(out.kind, 'queue');
    assert.equal(out.recipe, 'DistributedQueue');
    assert.equal(out.depth, 2);
    // Envelope: 4 (version) + 1 + 4 + item + 1 (end) per node.
    assert.equal(out.bytes, 10 + 'first item'.length + 10 + 'second'.length);
    const oldest = out.oldest as { data: string; items: number; ageMs: number };
    assert.equal(oldest.data, 'first item');
    assert.equal(oldest.items, 1);
    assert.ok(oldest.ageMs >= 0);
  });

  it('decodes a SimpleDistributedQueue', async () => {
    const path = uniquePath('cli-java-simple-queue');
    await peer.request(`simple-offer ${path} job-1`);
    const out = await inspectJson(server, path);
    assert.equal(out.recipe, 'SimpleDistributedQueue');
    assert.equal(out.depth, 1);
    assert.equal((out.oldest as { data: string }).data, 'job-1');
  });

  it('decodes a DistributedDoubleBarrier before and after it fills', async () => {
    const path = uniquePath('cli-java-barrier');
    await peer.request(`barrier-enter ${path} 3`);
    await peer.request(`barrier-enter ${path} 3`);
    await waitFor(async () => (await childCount(path)) === 2);
    const waiting = await inspectJson(server, path);
    assert.equal(waiting.kind, 'double-barrier');
    assert.equal((waiting.members as Node[]).length, 2);
    assert.equal(waiting.ready, false);

    await peer.request(`barrier-enter ${path} 3`);
    for (let i = 0; i < 3; i++) await peer.expectLine(new RegExp(`^EVENT entered ${path}$`));
    const full = await inspectJson(server, path);
    assert.equal((full.members as Node[]).length, 3);
    assert.equal(full.ready, true);
  });

  it('decodes an InterProcessSemaphoreV2 lease taken by Java', async () => {
    const path = uniquePath('cli-java-semaphore');
    await peer.request(`semaphore ${path} 2`);
    await peer.expectLine(new RegExp(`^EVENT lease ${path}$`));
    const out = await inspectJson(server, path);
    assert.equal(out.kind, 'semaphore');
    assert.equal((out.leases as Node[]).length, 1);
    assert.match((out.leases as Node[])[0]!.name, /^_c_[0-9a-f-]{36}-lease-\d{10}$/);
  });
});
