import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isClosed, type FrameworkClient } from '@zkrecipes/framework';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import {
  connectedClient,
  startClient,
  timed,
  assertSignalsEndCallsWhilePaused,
} from '@zkrecipes/test-support';
import { NodeCache, PathChildrenCache, StartMode } from '../src/index.js';

describe('caches with the server stopped', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    // A session that outlives the outage, so the caches see SUSPENDED and nothing more.
    client = await startClient(server.connectString, { sessionTimeoutMs: 30_000 });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('close() resolves at once, and waits under way (start, rebuild) reject with ClosedError on the cache close and on the client close', async () => {
    const parent = uniquePath('outage');
    for (const name of ['a', 'b']) {
      await client.create(`${parent}/${name}`, { data: Buffer.from(name), createParents: true });
    }
    const children = new PathChildrenCache(client, parent);
    const node = new NodeCache(client, `${parent}/a`);
    await children.start(StartMode.BUILD_INITIAL_CACHE);
    await node.start({ buildInitial: true });
    const other = await startClient(server.connectString, { sessionTimeoutMs: 30_000 });
    const otherCache = new PathChildrenCache(other, parent);
    await otherCache.start(StartMode.BUILD_INITIAL_CACHE);

    await server.stop();
    await waitFor(() => !client.isConnected && !other.isConnected, { message: 'SUSPENDED' });
    // The views stay as they were.
    assert.deepEqual(
      children.getCurrentData().map((child) => child.data?.toString()),
      ['a', 'b'],
    );
    assert.equal(node.getCurrentData()?.data?.toString(), 'a');
    // Waits that need the server: they wait for the connection until a close ends them
    // (rebuild() empties the view first, as Curator's does).
    const late = new PathChildrenCache(client, parent);
    const lateNode = new NodeCache(client, `${parent}/b`);
    const untilCacheClose = [
      timed(() => late.start(StartMode.BUILD_INITIAL_CACHE)),
      timed(() => lateNode.start({ buildInitial: true })),
      timed(() => children.rebuild()),
      timed(() => children.rebuildNode(`${parent}/a`)),
      timed(() => node.rebuild()),
    ];
    const untilClientClose = timed(() => otherCache.rebuild());

    for (const cache of [children, node, late, lateNode]) {
      const closed = await timed(() => cache.close());
      assert.ok(closed.ms < 1000, `close() of ${cache.path} took ${closed.ms.toFixed(0)} ms`);
    }
    for (const result of await Promise.all(untilCacheClose)) {
      assert.ok(isClosed(result.error), String(result.error));
      assert.ok(result.ms < 1000, `settled after ${result.ms.toFixed(0)} ms`);
    }
    const clientClosed = await timed(() => other.close());
    assert.ok(clientClosed.ms < 2000, `client close took ${clientClosed.ms.toFixed(0)} ms`);
    const waited = await untilClientClose;
    assert.ok(isClosed(waited.error), String(waited.error));
    const otherClosed = await timed(() => otherCache.close());
    assert.ok(otherClosed.ms < 1000);
    await server.restart();
  });

  it('server paused (the link still reads as connected): rebuild, rebuildNode and clearAndRefresh of a PathChildrenCache and NodeCache.rebuild, given { signal: AbortSignal.timeout(1000) }, reject with its TimeoutError in 1 to 1.5 s; an aborted signal rejects at once; after the resume the same calls without a signal bring the views up to date', async (t) => {
    // Its own client, connected after the restart above; a 30 s session: the liveness check
    // would call the connection dead only after 20 s.
    const own = await connectedClient(server, { sessionTimeoutMs: 30_000 });
    const parent = uniquePath('paused-rebuild');
    for (const name of ['a', 'b']) {
      await own.create(`${parent}/${name}`, { data: Buffer.from(name), createParents: true });
    }
    const children = new PathChildrenCache(own, parent);
    const node = new NodeCache(own, `${parent}/a`);
    const views = (): [string[], string | undefined] => [
      children.getCurrentData().map((child) => `${child.path}=${child.data?.toString()}`),
      node.getCurrentData()?.data?.toString(),
    ];
    const expected: [string[], string] = [[`${parent}/a=a`, `${parent}/b=b`], 'a'];
    const calls: [string, (signal?: AbortSignal) => Promise<void>][] = [
      ['PathChildrenCache.rebuild', (signal) => children.rebuild({ signal })],
      [
        'PathChildrenCache.rebuildNode',
        (signal) => children.rebuildNode(`${parent}/a`, { signal }),
      ],
      ['PathChildrenCache.clearAndRefresh', (signal) => children.clearAndRefresh({ signal })],
      ['NodeCache.rebuild', (signal) => node.rebuild({ signal })],
    ];
    try {
      await children.start(StartMode.BUILD_INITIAL_CACHE);
      await node.start({ buildInitial: true });
      assert.deepEqual(views(), expected);
      await assertSignalsEndCallsWhilePaused(server, own, calls, {
        diagnostic: (message) => t.diagnostic(message),
        // An aborted signal is refused before the view is touched.
        afterAborted: () => assert.deepEqual(views(), expected),
      });
      for (const [what, call] of calls) {
        await call();
        assert.deepEqual(views(), expected, `after ${what}`);
      }
    } finally {
      if (server.paused) server.resume();
      await children.close();
      await node.close();
      await own.close();
    }
  });
});
