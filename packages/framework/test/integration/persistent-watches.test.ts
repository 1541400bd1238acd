import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  fourLetterWord,
  killSession,
  TestingServer,
  timing,
  uniquePath,
  waitFor,
} from '@zkrecipes/testing';
import { firstValueFrom, filter } from 'rxjs';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { quickClient } from './fixtures/quick-client.js';
import { InvalidArgumentError } from '../../src/errors/zookeeper-error-classes.js';
import { ConnectionState } from '../../src/state/connection-state.js';
import type { WatchedEvent } from '../../src/zk/zookeeper-types.js';

function recorder(): { events: string[]; listener: (event: WatchedEvent) => void } {
  const events: string[] = [];
  return { events, listener: (event) => events.push(`${event.type} ${event.path}`) };
}

/** Paths the server holds watches on for `sessionId` (`wchc`: session, then its paths). */
async function serverWatchesOf(
  server: TestingServer,
  sessionId: bigint | undefined,
): Promise<string[]> {
  const reply = await fourLetterWord(server.host, server.port, 'wchc');
  const sections = reply.split(/\n(?=0x)/);
  const hex = `0x${(sessionId ?? 0n).toString(16)}`;
  const section = sections.find((text) => text.startsWith(hex)) ?? '';
  return section
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('/'));
}

/** Paths the server holds watches on for any session (`wchp`). */
async function serverWatchedPaths(server: TestingServer): Promise<string[]> {
  const reply = await fourLetterWord(server.host, server.port, 'wchp');
  return reply.split('\n').filter((line) => line.startsWith('/'));
}

describe('persistent watches (addWatch) on the real server', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  let writer: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    client = await quickClient(server.connectString);
    writer = await quickClient(server.connectString);
  });
  after(async () => {
    await client.close();
    await writer.close();
    await server.close();
  });

  it('PERSISTENT_RECURSIVE (the default) reports every create, data change and delete below the path, more than once', async () => {
    const root = uniquePath('recursive');
    const { events, listener } = recorder();
    const watch = await client.addWatch(root, listener);
    assert.equal(watch.mode, 'PERSISTENT_RECURSIVE');
    await writer.create(`${root}/a/b`, { createParents: true });
    await writer.setData(`${root}/a`, Buffer.from('1'));
    await writer.setData(`${root}/a`, Buffer.from('2'));
    await writer.delete(`${root}/a/b`);
    await writer.create(`${root}-sibling`);
    const expected = [
      `NODE_CREATED ${root}`,
      `NODE_CREATED ${root}/a`,
      `NODE_CREATED ${root}/a/b`,
      `NODE_DATA_CHANGED ${root}/a`,
      `NODE_DATA_CHANGED ${root}/a`,
      `NODE_DELETED ${root}/a/b`,
    ];
    await waitFor(() => events.length >= expected.length, { message: 'six events' });
    // The sibling's create (a path sharing the prefix) came after and is not reported.
    await writer.setData(`${root}/a`, Buffer.from('3'));
    await waitFor(() => events.length === expected.length + 1, { message: 'the last change' });
    assert.deepEqual(events, [...expected, `NODE_DATA_CHANGED ${root}/a`]);
    await watch.remove();
  });

  it('PERSISTENT reports the node and its children list, not what happens further down', async () => {
    const root = uniquePath('persistent');
    const { events, listener } = recorder();
    const watch = await client.addWatch(root, listener, { mode: 'PERSISTENT' });
    await writer.create(root);
    await writer.create(`${root}/c`);
    await writer.setData(`${root}/c`, Buffer.from('x')); // not reported: a child's data
    await writer.create(`${root}/d`);
    await waitFor(() => events.length >= 3, { message: 'three events' });
    assert.deepEqual(events, [
      `NODE_CREATED ${root}`,
      `NODE_CHILDREN_CHANGED ${root}`,
      `NODE_CHILDREN_CHANGED ${root}`,
    ]);
    await watch.remove();
  });

  it('event paths are in the namespace of the client that added the watch', async () => {
    const namespace = uniquePath('ns').slice(1);
    const view = client.usingNamespace(namespace);
    const { events, listener } = recorder();
    const watch = await view.addWatch('/group', listener);
    await writer.create(`/${namespace}/group/m1`, { createParents: true });
    await waitFor(() => events.includes('NODE_CREATED /group/m1'), { message: 'the child event' });
    assert.deepEqual(events, ['NODE_CREATED /group', 'NODE_CREATED /group/m1']);
    await watch.remove();
  });

  it('survives a reconnect to the same session and a new session: the client re-adds it', async () => {
    const root = uniquePath('restored');
    const own = await quickClient(server.connectString);
    try {
      const { events, listener } = recorder();
      await own.addWatch(root, listener);
      await writer.create(root);
      await waitFor(() => events.length === 1, { message: 'the first event' });

      const sessionBefore = own.sessionId;
      await server.stop();
      await server.restart();
      await waitFor(() => own.connectionState === ConnectionState.RECONNECTED, {
        message: 'RECONNECTED',
      });
      assert.equal(own.sessionId, sessionBefore, 'same session');
      await waitFor(async () => (await serverWatchesOf(server, own.sessionId)).includes(root), {
        message: 'the watch re-added on the new connection',
      });
      await writer.blockUntilConnected({ timeoutMs: timing.ms(10_000) });
      await writer.create(`${root}/after-restart`);
      await waitFor(() => events.includes(`NODE_CREATED ${root}/after-restart`), {
        message: 'an event after the reconnect',
      });

      const lost = firstValueFrom(own.connectionStates.pipe(filter((s) => s === 'LOST')));
      await killSession(own, server.connectString);
      await lost;
      await own.blockUntilConnected({ timeoutMs: timing.ms(10_000) });
      assert.notEqual(own.sessionId, sessionBefore, 'a new session');
      // A second session switch can follow the first; the watch is re-added on each.
      await waitFor(async () => (await serverWatchesOf(server, own.sessionId)).includes(root), {
        message: 'the watch re-added in the new session',
      });
      await writer.create(`${root}/after-new-session`);
      await waitFor(() => events.includes(`NODE_CREATED ${root}/after-new-session`), {
        message: 'an event in the new session',
      });
    } finally {
      await own.close();
    }
  });

  it('remove() stops the listener; the server watch goes with the last listener of the path', async () => {
    const root = uniquePath('removed');
    await writer.create(root);
    const first = recorder();
    const second = recorder();
    const a = await client.addWatch(root, first.listener);
    const b = await client.addWatch(root, second.listener);
    await a.remove();
    await a.remove(); // twice is a no-op
    await writer.create(`${root}/x`);
    await waitFor(() => second.events.length === 1, { message: "the other listener's event" });
    assert.deepEqual(first.events, [], 'a removed listener hears nothing');
    assert.ok((await serverWatchedPaths(server)).includes(root), 'still needed by b');

    await b.remove();
    assert.ok(!(await serverWatchedPaths(server)).includes(root), 'removed on the server');
    await writer.create(`${root}/y`);
    await client.exists(root); // a round trip after the create: an event would have come first
    assert.deepEqual(second.events, [`NODE_CREATED ${root}/x`]);
  });

  it('remove() leaves a one-shot watch on the same path working (removeWatches would drop it)', async () => {
    const root = uniquePath('one-shot');
    await writer.create(root);
    const persistent = recorder();
    const watch = await client.addWatch(root, persistent.listener, { mode: 'PERSISTENT' });
    let oneShot: WatchedEvent | undefined;
    await client.getData(root, { watch: (event) => (oneShot = event) });
    await watch.remove();
    await writer.setData(root, Buffer.from('changed'));
    await waitFor(() => oneShot !== undefined, { message: 'the one-shot watch' });
    assert.equal(oneShot?.type, 'NODE_DATA_CHANGED');
    assert.deepEqual(persistent.events, [], 'the removed listener hears nothing');
  });

  it('rejects bad input before anything is sent, and a throwing listener does not reach the process', async () => {
    await assert.rejects(
      client.addWatch('relative', () => undefined),
      InvalidArgumentError,
    );
    await assert.rejects(
      client.addWatch('/x', () => undefined, { mode: 'ONCE' as never }),
      /mode must be 'PERSISTENT' or 'PERSISTENT_RECURSIVE'/,
    );
    await assert.rejects(client.addWatch('/x', 'no' as never), /listener must be a function/);

    const root = uniquePath('throwing');
    const reported = firstValueFrom(client.unhandledErrors);
    const watch = await client.addWatch(root, () => {
      throw new Error('listener bug');
    });
    await writer.create(root);
    const { error, context } = await reported;
    assert.match(String(error), /listener bug/);
    assert.match(context, /persistent watch/);
    await watch.remove();
  });
});
