import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { JavaPeer, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import { PersistentTtlNode } from '../src/index.js';

// dist/test/*.test.js -> test/fixtures/*.java in the package's sources.
const peerSource = new URL('../../test/fixtures/CuratorGroupPeer.java', import.meta.url).pathname;

const TTL_MS = 400;

/** Resolves once the child at `path` has been written `count` more times (its mzxid moved). */
async function touches(client: FrameworkClient, path: string, count: number): Promise<void> {
  const seen = new Set<bigint>();
  await waitFor(
    async () => {
      const stat = await client.exists(path);
      if (stat !== null) seen.add(stat.mzxid);
      return seen.size > count;
    },
    { timeoutMs: 20_000, message: `${count} touches of ${path}` },
  );
}

describe('PersistentTtlNode interop with Apache Curator 5.4', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  let peer: JavaPeer;
  before(async () => {
    server = await TestingServer.start({
      extendedTypesEnabled: true,
      containerCheckIntervalMs: 50,
    });
    client = await startClient(server.connectString);
    peer = await JavaPeer.start({ source: peerSource, args: [server.connectString] });
  });
  after(async () => {
    await peer.close();
    await client.close();
    await server.close();
  });

  it("Curator's node has our layout (data on the node, a TTL 'touch' child); one kept by both outlives Curator's close, and goes once ours closes too", async () => {
    const path = uniquePath('ttl-interop-java');
    assert.equal(await peer.request(`ttl ${path} ${TTL_MS} shared`), 'OK');
    assert.equal((await client.getData(path)).data.toString(), 'shared');
    await touches(client, `${path}/touch`, 2);
    assert.deepEqual(await client.getChildren(path), ['touch']);
    assert.equal((await client.exists(`${path}/touch`))?.ephemeralOwner, 0n);

    const ours = new PersistentTtlNode(client, path, TTL_MS, { data: Buffer.from('shared') });
    await ours.start();
    assert.equal(await ours.waitForInitialCreate({ timeoutMs: 5_000 }), true);
    assert.equal(await peer.request('ttl-close'), 'OK');
    // Ours alone keeps it: several TTLs of touches, the node there all along.
    await touches(client, `${path}/touch`, 4);
    assert.equal(await peer.request(`data ${path}`), 'OK shared');
    await ours.close();
    await waitFor(async () => (await peer.request(`data ${path}`)) === 'OK NONODE', {
      timeoutMs: 20_000,
      message: 'Curator sees the node go by its TTL once nobody keeps it',
    });
  });

  it("Curator sees our node's data and its touch child; ours goes by its TTL after close()", async () => {
    const path = uniquePath('ttl-interop-node');
    const ours = new PersistentTtlNode(client, path, TTL_MS, { data: Buffer.from('from-node') });
    await ours.start();
    assert.equal(await ours.waitForInitialCreate({ timeoutMs: 5_000 }), true);
    assert.equal(await peer.request(`data ${path}`), 'OK from-node');
    await waitFor(async () => (await peer.request(`children ${path}`)) === 'OK touch', {
      message: 'Curator sees the touch child',
    });
    await ours.close();
    assert.equal(await peer.request(`data ${path}`), 'OK from-node', 'close() deletes nothing');
    await waitFor(async () => (await peer.request(`data ${path}`)) === 'OK NONODE', {
      timeoutMs: 20_000,
      message: 'the node goes by its TTL',
    });
  });
});
