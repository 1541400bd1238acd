import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { compileJavaPeer, JavaPeer, TestingServer, uniquePath } from '@zkrecipes/testing';
import { connect } from '@zkrecipes/test-support';
import { DistributedDoubleBarrier } from '../src/index.js';

// dist/test/*.test.js -> test/fixtures/*.java in the package's sources.
const peerSource = new URL('../../test/fixtures/CuratorBarrierPeer.java', import.meta.url).pathname;

describe('DistributedDoubleBarrier with Java Curator 5.4 members', () => {
  let server: TestingServer;
  let peer: JavaPeer;
  let clients: FrameworkClient[] = [];
  before(async () => {
    server = await TestingServer.start();
    [peer, ...clients] = await Promise.all([
      JavaPeer.start({ source: peerSource, args: [server.connectString] }),
      connect(server.connectString),
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

  it('2 Java and 3 Node members share the barrier for 5 rounds: nobody enters or leaves early', async () => {
    const path = uniquePath('interop-double');
    const javaIds = ['j0', 'j1'];
    for (let round = 0; round < 5; round += 1) {
      let entering = 0;
      let leaving = 0;
      const violations: string[] = [];
      const nodeMembers = clients.map((client) => new DistributedDoubleBarrier(client, path, 5));
      // Java members enter first (their calls return at once; results come as events).
      for (const id of javaIds) {
        entering += 1;
        assert.equal(await peer.request(`enter ${id} ${path} 5`), 'OK');
      }
      const nodeEntered = nodeMembers.map(async (barrier, i) => {
        entering += 1;
        assert.equal(await barrier.enter({ timeoutMs: 20_000 }), true);
        if (entering < 5) violations.push(`round ${round}: node ${i} entered early`);
      });
      await Promise.all(nodeEntered);
      for (const id of javaIds) {
        const line = await peer.expectLine(new RegExp(`^EVENT (entered|error) ${id} `));
        assert.equal(line, `EVENT entered ${id} true`);
      }
      // Node members leave first this time; they must wait for the Java members.
      let javaLeft = 0;
      const nodeLeft = nodeMembers.map(async (barrier, i) => {
        leaving += 1;
        assert.equal(await barrier.leave({ timeoutMs: 20_000 }), true);
        if (javaLeft < javaIds.length) violations.push(`round ${round}: node ${i} left early`);
      });
      for (const id of javaIds) {
        leaving += 1;
        javaLeft += 1;
        assert.equal(await peer.request(`leave ${id}`), 'OK');
      }
      await Promise.all(nodeLeft);
      for (const id of javaIds) {
        const line = await peer.expectLine(new RegExp(`^EVENT (left|error) ${id} `));
        assert.equal(line, `EVENT left ${id} true`);
      }
      assert.equal(leaving, 5);
      assert.deepEqual(violations, []);
      assert.deepEqual(await clients[0]!.getChildren(path), []);
    }
  });
});
