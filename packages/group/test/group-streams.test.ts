import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateMode, type FrameworkClient } from '@zkrecipes/framework';
import { TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import { GroupMember, PersistentNode, type GroupMembers } from '../src/index.js';

/** `id=payload` strings, sorted. */
function view(members: GroupMembers): string {
  return [...members]
    .map(([id, payload]) => `${id}=${payload.toString()}`)
    .sort()
    .join(',');
}

describe('group streams and listeners', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    client = await startClient(server.connectString);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('a lone member: membersChanged fires for the initial view as the members stream gives it, then for a join', async () => {
    const group = uniquePath('group-lone');
    await using member = new GroupMember(client, group, 'solo', Buffer.from('me'));
    const heard: string[] = [];
    member.on('membersChanged', (members) => heard.push(view(members)));
    const looped: string[] = [];
    const loop = (async () => {
      for await (const members of member.members) looped.push(view(members));
      return 'ended';
    })();
    await member.start();
    await waitFor(() => heard.length === 1, { message: 'the initial view reached the listener' });
    assert.deepEqual(heard, ['solo=me']);
    assert.deepEqual(looped, ['solo=me']);

    await using other = new GroupMember(client, group, 'other', Buffer.from('you'));
    await other.start();
    await waitFor(() => heard.length === 2 && looped.length === 2, { message: 'the join' });
    assert.deepEqual(heard, ['solo=me', 'other=you,solo=me']);
    assert.deepEqual(looped, heard);
    await member.close();
    assert.equal(await loop, 'ended');
  });

  it('members and errors end a for await loop on close() with the server stopped', async () => {
    const own = await startClient(server.connectString);
    const member = new GroupMember(own, uniquePath('group-down'), 'm');
    await member.start();
    assert.equal(await member.waitForInitialCreate({ timeoutMs: timing.ms(5000) }), true);
    const views = (async () => {
      let count = 0;
      for await (const members of member.members) count += members.size;
      return count;
    })();
    const errors = (async () => {
      for await (const failure of member.errors) assert.fail(`unexpected ${failure.context}`);
      return 'ended';
    })();
    await server.stop();
    try {
      await waitFor(() => own.connectionState === 'SUSPENDED', { message: 'SUSPENDED' });
      const closedAt = performance.now();
      await member.close();
      assert.ok((await views) >= 1);
      assert.equal(await errors, 'ended');
      assert.ok(
        performance.now() - closedAt < timing.ms(2000),
        'close() and the loops were prompt',
      );
    } finally {
      await own.close();
      await server.restart();
    }
  });

  it('PersistentNode.createdPaths: each creation, readable with for await', async () => {
    const base = uniquePath('node-created');
    const node = new PersistentNode(client, base, CreateMode.EPHEMERAL, Buffer.from('x'));
    const heard: string[] = [];
    node.on('nodeCreated', (path) => heard.push(path));
    // Subscribed before start(): the stream does not replay (each value is an event).
    const first = (async () => {
      for await (const path of node.createdPaths) return path;
      return 'ended without a creation';
    })();
    await node.start();
    assert.equal(await first, base);
    await waitFor(() => heard.length === 1, { message: 'the listener heard the creation' });
    assert.deepEqual(heard, [base]);
    await node.close();
  });
});
