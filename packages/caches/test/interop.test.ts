import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { JavaPeer, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import { NodeCache, PathChildrenCache, StartMode } from '../src/index.js';
import { cachedView, EventLog } from './helpers.js';

// dist/test/interop.test.js -> test/fixtures/*.java in the package's sources.
const peerSource = new URL('../../test/fixtures/CuratorCachePeer.java', import.meta.url).pathname;

describe('caches interop with Apache Curator 5.4', () => {
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

  it("Curator's PathChildrenCache sees children created, changed and deleted by zkrecipes", async () => {
    const parent = await client.create(uniquePath('interop-java-cache'));
    await client.create(`${parent}/a`, { data: Buffer.from('1') });
    assert.equal(await peer.request(`cache ${parent}`), 'OK');
    await peer.expectLine(/^EVENT CHILD_ADDED a 1$/);
    await peer.expectLine(/^EVENT INITIALIZED$/);
    await client.create(`${parent}/b`, { data: Buffer.from('2') });
    await peer.expectLine(/^EVENT CHILD_ADDED b 2$/);
    await client.setData(`${parent}/a`, Buffer.from('1b'));
    await peer.expectLine(/^EVENT CHILD_UPDATED a 1b$/);
    await client.delete(`${parent}/b`);
    await peer.expectLine(/^EVENT CHILD_REMOVED b 2$/);
    assert.equal(await peer.request(`view ${parent}`), 'OK a=1b');
  });

  it("zkrecipes' PathChildrenCache and NodeCache see what Curator writes, protected names verbatim", async () => {
    const parent = await client.create(uniquePath('interop-node-cache'));
    await using cache = new PathChildrenCache(client, parent);
    const log = new EventLog(cache);
    await cache.start(StartMode.POST_INITIALIZED_EVENT);
    await log.waitForLine('INITIALIZED');
    assert.equal(await peer.request(`create ${parent}/x from-java`), 'OK');
    await log.waitForLine('CHILD_ADDED x');
    const created = (await peer.request(`create-protected ${parent}/lock- held`)).slice(3);
    const name = created.slice(parent.length + 1);
    assert.match(name, /^_c_[0-9a-f-]{36}-lock-\d{10}$/);
    await log.waitForLine(`CHILD_ADDED ${name}`);

    await using node = new NodeCache(client, `${parent}/x`);
    await node.start({ buildInitial: true });
    assert.equal(await peer.request(`set ${parent}/x changed`), 'OK');
    await log.waitForLine('CHILD_UPDATED x');
    await waitFor(() => node.getCurrentData()?.data?.toString() === 'changed', {
      message: 'the NodeCache to see the change',
    });
    assert.equal(await peer.request(`delete ${parent}/x`), 'OK');
    await log.waitForLine('CHILD_REMOVED x');
    assert.deepEqual(cachedView(cache), [`${name}=held`]);
    await waitFor(() => node.getCurrentData() === undefined, {
      message: 'the NodeCache to see the delete',
    });
  });
});
