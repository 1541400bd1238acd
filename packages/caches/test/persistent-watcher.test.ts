import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { filter, firstValueFrom } from 'rxjs';
import {
  ConnectionState,
  IllegalStateError,
  InvalidArgumentError,
  isClosed,
  RecipeState,
  type FrameworkClient,
  type WatchedEvent,
} from '@zkrecipes/framework';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import { PersistentWatcher } from '../src/index.js';

/** Watches the server holds, all sessions (`wchs`). */
async function watchCount(server: TestingServer): Promise<number> {
  const report = await server.fourLetter('wchs');
  return Number(/Total watches:(\d+)/.exec(report)?.[1] ?? -1);
}

function record(watcher: PersistentWatcher): string[] {
  const lines: string[] = [];
  watcher.on('event', (event: WatchedEvent) => void lines.push(`${event.type} ${event.path}`));
  return lines;
}

describe('PersistentWatcher', () => {
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

  for (const recursive of [true, false]) {
    it(`recursive ${recursive}: events before and after the session is lost to a stopped server, with a reset each time the watch is back (testConnectionLost${recursive ? 'Recursive' : ''})`, async () => {
      const own = await startClient(server.connectString);
      try {
        const top = uniquePath('pw-top');
        await using watcher = new PersistentWatcher(own, `${top}/main`, { recursive });
        const lines = record(watcher);
        const resets: number[] = [];
        watcher.on('reset', () => void resets.push(resets.length + 1));
        await watcher.start();
        assert.equal(watcher.state, RecipeState.STARTED);
        await waitFor(() => resets.length === 1, { message: 'the first reset' });
        await own.create(`${top}/main/a`, { createParents: true });
        const second = recursive
          ? `NODE_CREATED ${top}/main/a`
          : `NODE_CHILDREN_CHANGED ${top}/main`;
        await waitFor(() => lines.length >= 2, { message: 'two events' });
        assert.deepEqual(lines, [`NODE_CREATED ${top}/main`, second]);

        const lost = firstValueFrom(
          own.connectionStates.pipe(filter((s) => s === ConnectionState.LOST)),
        );
        const reconnected = firstValueFrom(
          own.connectionStates.pipe(filter((s) => s === ConnectionState.RECONNECTED)),
        );
        await server.stop();
        await lost;
        await server.restart();
        await reconnected;
        await waitFor(() => resets.length === 2, { message: 'the reset after the new session' });
        lines.length = 0;
        if (recursive) {
          await own.setData(`${top}/main/a`, Buffer.from('foo'));
          await waitFor(() => lines.length === 1, { message: 'the child change' });
          assert.deepEqual(lines, [`NODE_DATA_CHANGED ${top}/main/a`]);
          lines.length = 0;
        }
        await own.setData(`${top}/main`, Buffer.from('bar'));
        await waitFor(() => lines.length === 1, { message: 'the change of the node' });
        assert.deepEqual(lines, [`NODE_DATA_CHANGED ${top}/main`]);
      } finally {
        await own.close();
      }
    });
  }

  it("through a namespace view the events carry the view's paths (testNamespacedWatching)", async () => {
    const namespace = uniquePath('pw-ns').slice(1);
    await using watcher = new PersistentWatcher(client.usingNamespace(namespace), '/main');
    const lines = record(watcher);
    await watcher.start();
    await client.create(`/${namespace}/main`, { createParents: true });
    await client.create(`/${namespace}/main/a`);
    await waitFor(() => lines.length === 2, { message: 'two events' });
    assert.deepEqual(lines, ['NODE_CREATED /main', 'NODE_CREATED /main/a']);
  });

  it('close() removes the server watch and stops the events; 100 start/close cycles leave no watch behind (testCuratorListenersNotLeaking)', async () => {
    const path = uniquePath('pw-close');
    const before = await watchCount(server);
    for (let i = 0; i < 100; i++) {
      const watcher = new PersistentWatcher(client, path);
      await watcher.start();
      await watcher.close();
    }
    assert.equal(await watchCount(server), before);

    const watcher = new PersistentWatcher(client, path);
    const lines = record(watcher);
    await watcher.start();
    assert.equal(await watchCount(server), before + 1);
    await watcher.close();
    await watcher.close(); // twice is a no-op
    assert.equal(watcher.state, RecipeState.CLOSED);
    assert.equal(await watchCount(server), before);
    await client.create(path, { data: Buffer.from('x') });
    // A watcher that is still open sees the create: the closed one stays silent.
    await using other = new PersistentWatcher(client, path);
    const seen = record(other);
    await other.start();
    await client.setData(path, Buffer.from('y'));
    await waitFor(() => seen.length === 1, { message: 'the open watcher to see the change' });
    assert.deepEqual(lines, []);
  });

  it('a client closed before or during the watcher: start() rejects with ClosedError, close() is prompt (testAfterClientClose, testConcurrentClientClose)', async () => {
    const closedClient = await startClient(server.connectString);
    await closedClient.close();
    const late = new PersistentWatcher(closedClient, uniquePath('pw-closed'));
    await assert.rejects(late.start(), isClosed);
    await late.close();

    const own = await startClient(server.connectString);
    const watcher = new PersistentWatcher(own, uniquePath('pw-closing'));
    await watcher.start();
    await own.close();
    const started = performance.now();
    await watcher.close();
    assert.ok(performance.now() - started < 1000);
  });

  it('server stopped: start() waits for the connection until close() ends it, promptly, with ClosedError', async () => {
    const own = await startClient(server.connectString, { sessionTimeoutMs: 30_000 });
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown): void => void rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const running = new PersistentWatcher(own, uniquePath('pw-running'));
      await running.start();
      await server.stop();
      await waitFor(() => !own.isConnected, { message: 'SUSPENDED' });
      const waiting = new PersistentWatcher(own, uniquePath('pw-waiting'));
      const start = waiting.start().then(
        () => undefined,
        (error: unknown) => error,
      );
      const began = performance.now();
      await waiting.close();
      await running.close();
      assert.ok(isClosed(await start), 'start() rejects with ClosedError');
      const ms = performance.now() - began;
      assert.ok(ms < 1000, `settled in ${ms.toFixed(0)} ms`);
      await server.restart();
      await own.blockUntilConnected({ timeoutMs: 20_000 });
      assert.deepEqual(rejections, []);
    } finally {
      process.off('unhandledRejection', onRejection);
      await own.close();
    }
  });

  it('bad input fails with typed errors before anything is sent; a second start() is refused', async () => {
    assert.throws(() => new PersistentWatcher({} as FrameworkClient, '/x'), InvalidArgumentError);
    assert.throws(() => new PersistentWatcher(client, 'x'), InvalidArgumentError);
    assert.throws(
      () => new PersistentWatcher(client, '/x', { recursive: 1 as unknown as boolean }),
      InvalidArgumentError,
    );
    const watcher = new PersistentWatcher(client, uniquePath('pw-misuse'));
    assert.throws(() => watcher.on('bogus' as 'event', () => 1), InvalidArgumentError);
    assert.throws(() => watcher.on('event', 'no' as unknown as () => void), InvalidArgumentError);
    await watcher.start();
    await assert.rejects(watcher.start(), IllegalStateError);
    await watcher.close();
  });
});
