import assert from 'node:assert/strict';
import { closeSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { JavaPeer, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import { LeaderLatch } from '../src/leader-latch.js';
import { LeaderSelector } from '../src/leader-selector.js';
import { deferred } from './helpers.js';

// dist/test/interop.test.js -> test/fixtures/*.java in the package's sources.
const peerSource = new URL('../../test/fixtures/CuratorLeaderPeer.java', import.meta.url).pathname;

/** "id:true,id:false" as the Java peer writes participants. */
function describeParticipants(participants: readonly { id: string; isLeader: boolean }[]): string {
  return participants.map(({ id, isLeader }) => `${id}:${isLeader}`).join(',');
}

describe('interop with Curator 5.4', () => {
  let server: TestingServer;
  let peer: JavaPeer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    peer = await JavaPeer.start({ source: peerSource, args: [server.connectString] });
    client = await connectedClient(server);
  });
  after(async () => {
    await peer.close();
    await client.close();
    await server.close();
  });

  it('a Java LeaderSelector and ours share one election: one leader across both (a shared witness file), each sees the other, leadership alternates', async () => {
    const path = uniquePath('interop');
    const witness = join(tmpdir(), `zkrecipes-leader-witness-${process.pid}-${Date.now()}`);
    const violations: string[] = [];
    let release = (): void => undefined;
    let nodeLeads = 0;
    const selector = new LeaderSelector(
      client,
      path,
      async (signal) => {
        try {
          closeSync(openSync(witness, 'wx')); // fails if Java holds it
        } catch (error) {
          violations.push(`node led while the witness existed: ${String(error)}`);
        }
        nodeLeads++;
        const released = deferred();
        release = released.resolve;
        signal.addEventListener('abort', () => released.resolve(), { once: true });
        await released.promise;
        rmSync(witness, { force: true });
      },
      { id: 'node-1', autoRequeue: true },
    );
    try {
      assert.equal(await peer.request(`selector j ${path} java-1 ${witness}`), 'OK');
      await peer.expectLine(/^EVENT leader j$/);
      await selector.start();
      await waitFor(async () => (await selector.getParticipants()).length === 2);
      assert.equal(
        describeParticipants(await selector.getParticipants()),
        'java-1:true,node-1:false',
      );
      assert.equal(await peer.request('participants j'), 'OK java-1:true,node-1:false');
      for (let round = 0; round < 3; round++) {
        assert.equal(await peer.request('release j'), 'OK');
        await waitFor(() => selector.isLeader, { message: `node leads (round ${round})` });
        assert.equal(await peer.request('leads j'), 'OK false');
        await waitFor(
          async () => (await peer.request('participants j')) === 'OK node-1:true,java-1:false',
        );
        release();
        await peer.expectLine(/^EVENT leader j$/);
        assert.equal(selector.isLeader, false);
        await waitFor(
          async () =>
            describeParticipants(await selector.getParticipants()) === 'java-1:true,node-1:false',
        );
      }
      assert.equal(nodeLeads, 3);
      assert.deepEqual(violations, []);
    } finally {
      await selector.close();
      assert.equal(await peer.request('close j'), 'OK');
      rmSync(witness, { force: true });
    }
    assert.equal(
      await peer.request('violations -'),
      'OK 0',
      'no Java leader found the witness taken',
    );
  });

  it('a Java LeaderLatch and ours: exactly one leads, both see both ids, and leadership passes either way on close', async () => {
    const path = uniquePath('interop');
    const ours = new LeaderLatch(client, path, { id: 'node-1' });
    await ours.start();
    assert.equal(await ours.await({ timeoutMs: 10_000 }), true);
    assert.equal(await peer.request(`latch j ${path} java-1`), 'OK');
    await waitFor(async () => (await ours.getParticipants()).length === 2);
    assert.equal(await peer.request('leads j'), 'OK false');
    assert.equal(await peer.request('participants j'), 'OK node-1:true,java-1:false');
    assert.equal(describeParticipants(await ours.getParticipants()), 'node-1:true,java-1:false');

    await ours.close();
    await peer.expectLine(/^EVENT latch-leader j$/);
    assert.equal(await peer.request('leads j'), 'OK true');

    const again = new LeaderLatch(client, path, { id: 'node-2' });
    try {
      await again.start();
      await waitFor(async () => (await again.getParticipants()).length === 2);
      assert.equal(describeParticipants(await again.getParticipants()), 'java-1:true,node-2:false');
      assert.equal(again.isLeader, false);
      assert.equal(await peer.request('close j'), 'OK');
      assert.equal(await again.await({ timeoutMs: 10_000 }), true);
      assert.equal(describeParticipants(await again.getParticipants()), 'node-2:true');
    } finally {
      await closeAll([again]);
    }
  });
});
