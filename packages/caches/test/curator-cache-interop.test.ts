import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { JavaPeer, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import { CuratorCache } from '../src/index.js';
import { CacheLog, serverTree, waitForServerTree } from './curator-cache-helpers.js';

// dist/test/*.test.js -> test/fixtures/*.java in the package's sources.
const peerSource = new URL('../../test/fixtures/CuratorCachePeer.java', import.meta.url).pathname;

function escape(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} ?$`);
}

/** `path=data` sorted by path, as the peer's `curator-view` answers (without `OK `). */
async function javaView(peer: JavaPeer, root: string): Promise<string> {
  return (await peer.request(`curator-view ${root}`)).slice(3);
}

function ourView(cache: CuratorCache): string {
  return cache
    .stream()
    .map((node) => `${node.path}=${node.data?.toString() ?? ''}`)
    .join(',');
}

describe('CuratorCache interop with Apache Curator 5.4', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  let peer: JavaPeer;
  before(async () => {
    server = await TestingServer.start();
    client = await startClient(server.connectString);
    peer = await JavaPeer.start({ source: peerSource, args: [server.connectString] });
  });
  after(async () => {
    await peer.close();
    await client.close();
    await server.close();
  });

  it("Curator's CuratorCache sees a subtree built, changed and torn down by zkrecipes, the root included", async () => {
    const root = await client.create(uniquePath('cc-interop-java'), { data: Buffer.from('r') });
    await client.create(`${root}/a`, { data: Buffer.from('1') });
    assert.equal(await peer.request(`curator-cache ${root}`), 'OK');
    const initial = [
      await peer.expectLine(/^EVENT CC NODE_CREATED /),
      await peer.expectLine(/^EVENT CC NODE_CREATED /),
    ].sort();
    assert.deepEqual(initial, [
      `EVENT CC NODE_CREATED ${root} r`,
      `EVENT CC NODE_CREATED ${root}/a 1`,
    ]);
    await peer.expectLine(/^EVENT CC INITIALIZED$/);

    await client.create(`${root}/a/b/c`, { data: Buffer.from('deep'), createParents: true });
    await peer.expectLine(escape(`EVENT CC NODE_CREATED ${root}/a/b/c deep`));
    await client.setData(`${root}/a`, Buffer.from('1b'));
    await peer.expectLine(escape(`EVENT CC NODE_CHANGED ${root}/a 1b`));
    await client.create(`${root}/e`, { mode: 'EPHEMERAL', data: Buffer.from('mine') });
    await peer.expectLine(escape(`EVENT CC NODE_CREATED ${root}/e mine`));
    await client.delete(`${root}/a/b`, { deleteChildren: true });
    await peer.expectLine(escape(`EVENT CC NODE_DELETED ${root}/a/b`));
    const expected = (await serverTree(client, root)).map((line) => line.replace(/@\d+$/, ''));
    await waitFor(async () => (await javaView(peer, root)) === expected.join(','), {
      message: `Curator's view to equal ${expected.join(',')}`,
    });
  });

  it("zkrecipes' CuratorCache sees what Curator writes, and both caches of the subtree hold the same view", async () => {
    const root = uniquePath('cc-interop-node');
    await using cache = new CuratorCache(client, root);
    const log = new CacheLog(cache);
    await cache.start();
    await log.waitForLine('INITIALIZED');
    assert.equal(await peer.request(`create ${root}/x/y from-java`), 'OK');
    await log.waitForLine(`NODE_CREATED ${root}/x/y=from-java`);
    assert.ok(log.lines.includes(`NODE_CREATED ${root}=`));
    assert.ok(log.lines.includes(`NODE_CREATED ${root}/x=`));
    const created = (await peer.request(`create-protected ${root}/x/lock- held`)).slice(3);
    assert.match(created.slice(`${root}/x/`.length), /^_c_[0-9a-f-]{36}-lock-\d{10}$/);
    await log.waitForLine(`NODE_CREATED ${created}=held`);
    assert.equal(await peer.request(`set ${root}/x/y changed`), 'OK');
    await log.waitForLine(`NODE_CHANGED ${root}/x/y=changed`);
    assert.equal(await peer.request(`curator-cache ${root}`), 'OK');
    await peer.expectLine(/^EVENT CC INITIALIZED$/);
    assert.equal(await peer.request(`delete ${root}/x/y`), 'OK');
    await log.waitForLine(`NODE_DELETED ${root}/x/y`);
    await peer.expectLine(escape(`EVENT CC NODE_DELETED ${root}/x/y changed`));
    await waitForServerTree(cache, client, root);
    assert.equal(await javaView(peer, root), ourView(cache));
    assert.equal(await peer.request(`delete-tree ${root}`), 'OK');
    await log.waitForLine(`NODE_DELETED ${root}`);
    assert.equal(cache.size, 0);
  });
});
