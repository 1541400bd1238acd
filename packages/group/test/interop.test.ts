import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { firstValueFrom } from 'rxjs';
import { filter } from 'rxjs/operators';
import type { FrameworkClient } from '@zkrecipes/framework';
import { PathChildrenCache, StartMode } from '@zkrecipes/caches';
import { JavaPeer, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import { GroupMember, PersistentNode } from '../src/index.js';

// dist/test/interop.test.js -> test/fixtures/*.java in the package's sources.
const peerSource = new URL('../../test/fixtures/CuratorGroupPeer.java', import.meta.url).pathname;

describe('group interop with Apache Curator 5.4', () => {
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

  it("a Curator GroupMember and a zkrecipes GroupMember on one path see each other's ids and payloads, and each other leave", async () => {
    const group = uniquePath('interop-group');
    await using member = new GroupMember(client, group, 'node-1', Buffer.from('from-node'));
    await member.start();
    await member.waitForInitialCreate({ timeoutMs: 5000 });
    assert.equal(await peer.request(`member ${group} java-1 from-java`), 'OK');
    const both = await firstValueFrom(member.members.pipe(filter((m) => m.has('java-1'))));
    assert.equal(both.get('java-1')?.toString(), 'from-java');
    await waitFor(
      async () => (await peer.request('members')) === 'OK java-1=from-java,node-1=from-node',
      { message: "Curator's view to show both" },
    );

    await member.setThisData(Buffer.from('changed'));
    await waitFor(async () => (await peer.request('members')).includes('node-1=changed'), {
      message: 'Curator to see the new payload',
    });
    assert.equal(await peer.request('member-close'), 'OK');
    const alone = await firstValueFrom(member.members.pipe(filter((m) => !m.has('java-1'))));
    assert.deepEqual([...alone.keys()], ['node-1']);
  });

  it("PersistentNode: Curator sees our protected sequential node as its own kind, and we see Curator's", async () => {
    const parent = await client.create(uniquePath('interop-nodes'));
    await using cache = new PathChildrenCache(client, parent);
    await cache.start(StartMode.BUILD_INITIAL_CACHE);
    await using ours = new PersistentNode(
      client,
      `${parent}/node-`,
      'EPHEMERAL_SEQUENTIAL',
      Buffer.from('ours'),
      {
        protection: true,
      },
    );
    await ours.start();
    await ours.waitForInitialCreate({ timeoutMs: 5000 });
    const ourName = ours.actualPath?.slice(parent.length + 1) ?? '';
    const normalized = ourName.slice(40);
    assert.equal(await peer.request(`protected ${ourName}`), `OK true ${normalized}`);

    const answer = await peer.request(`node EPHEMERAL_SEQUENTIAL true ${parent}/node-`);
    const javaName = answer.slice(3 + parent.length + 1);
    assert.match(javaName, /^_c_[0-9a-f-]{36}-node-\d{10}$/);
    await waitFor(
      () => cache.getCurrentData(`${parent}/${javaName}`)?.data?.toString() === 'java',
      {
        message: "our cache to see Curator's node",
      },
    );
    assert.equal(
      await peer.request(`children ${parent}`),
      `OK ${[ourName, javaName].sort().join(',')}`,
    );

    assert.equal(await peer.request('node-close'), 'OK');
    await waitFor(() => cache.getCurrentData(`${parent}/${javaName}`) === undefined, {
      message: "Curator's node gone",
    });
    await ours.close();
    assert.equal(await peer.request(`children ${parent}`), 'OK ');
  });
});
