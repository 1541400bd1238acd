import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { filter, firstValueFrom } from 'rxjs';
import { ConnectionState, type FrameworkClient } from '@zkrecipes/framework';
import { FaultProxy, killSession, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import { CuratorCache } from '../src/index.js';
import {
  cacheTree,
  CacheLog,
  isChurnConflict,
  serverTree,
  settle,
  waitForServerTree,
} from './curator-cache-helpers.js';

function reach(client: FrameworkClient, state: ConnectionState): Promise<unknown> {
  return firstValueFrom(client.connectionStates.pipe(filter((s) => s === state)));
}

const ONE = Buffer.from('one');
const TWO = Buffer.from('two');

describe('CuratorCache under faults', () => {
  let server: TestingServer;
  let writer: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    writer = await startClient(server.connectString);
  });
  after(async () => {
    await writer.close();
    await server.close();
  });

  /** Curator's TestCuratorCacheEdges tree: /root, 1 (11 12 13), 2 (21 22). */
  async function curatorTree(): Promise<string> {
    const root = await writer.create(uniquePath('cc-fault'), { data: ONE });
    for (const path of ['1', '2', '1/11', '1/12', '1/13', '2/21', '2/22']) {
      await writer.create(`${root}/${path}`, { data: ONE });
    }
    return root;
  }

  /** Curator's partition changes: 2 and its children gone, root changed, six nodes new. */
  async function changeDuringPartition(root: string): Promise<void> {
    for (const path of ['2/21', '2/22', '2']) await writer.delete(`${root}/${path}`);
    await writer.setData(root, TWO);
    for (const path of ['1/11/111', '1/11/111/1111', '1/11/111/1112', '1/13/131', '1/13/132']) {
      await writer.create(`${root}/${path}`, { data: TWO });
    }
    await writer.create(`${root}/1/13/132/1321`, { data: TWO });
  }

  function expectedDifferences(root: string): string[] {
    return [
      `NODE_CHANGED ${root}=two`,
      `NODE_CREATED ${root}/1/11/111/1111=two`,
      `NODE_CREATED ${root}/1/11/111/1112=two`,
      `NODE_CREATED ${root}/1/11/111=two`,
      `NODE_CREATED ${root}/1/13/131=two`,
      `NODE_CREATED ${root}/1/13/132/1321=two`,
      `NODE_CREATED ${root}/1/13/132=two`,
      `NODE_DELETED ${root}/2`,
      `NODE_DELETED ${root}/2/21`,
      `NODE_DELETED ${root}/2/22`,
    ].sort();
  }

  it('connection dropped while the tree changes, same session: after RECONNECTED the events are exactly the differences (testReconnectConsistency)', async () => {
    const root = await curatorTree();
    await using proxy = await FaultProxy.start({ targetPort: server.port });
    const client = await startClient(proxy.connectString);
    try {
      const session = client.sessionId;
      await using cache = new CuratorCache(client, root);
      const log = new CacheLog(cache);
      await cache.start();
      await log.waitForLine('INITIALIZED');
      assert.equal(cache.size, 8);
      const suspended = reach(client, ConnectionState.SUSPENDED);
      proxy.drop();
      await suspended;
      log.clear();
      await changeDuringPartition(root);
      const reconnected = reach(client, ConnectionState.RECONNECTED);
      proxy.heal();
      await reconnected;
      // The resync reads level by level: wait for it, then for every event to arrive.
      await waitForServerTree(cache, writer, root);
      const lines = await settle(writer, log, root);
      assert.equal(client.sessionId, session);
      assert.deepEqual(lines.sort(), expectedDifferences(root));
      assert.equal(cache.size, 11);
      assert.deepEqual(cacheTree(cache), await serverTree(writer, root));
    } finally {
      await client.close();
    }
  });

  it('session killed while disconnected: after LOST and a new session the events are exactly the differences, own ephemerals included', async () => {
    const root = await curatorTree();
    await using proxy = await FaultProxy.start({ targetPort: server.port });
    const client = await startClient(proxy.connectString);
    try {
      const session = client.sessionId;
      await client.create(`${root}/1/mine`, { mode: 'EPHEMERAL' });
      await using cache = new CuratorCache(client, root);
      const log = new CacheLog(cache);
      await cache.start();
      await log.waitForLine('INITIALIZED');
      assert.equal(cache.size, 9);
      const suspended = reach(client, ConnectionState.SUSPENDED);
      proxy.drop();
      await suspended;
      log.clear();
      const lost = reach(client, ConnectionState.LOST);
      await killSession(client, server.connectString);
      await changeDuringPartition(root);
      const reconnected = reach(client, ConnectionState.RECONNECTED);
      proxy.heal();
      await lost;
      await reconnected;
      // The resync reads level by level: wait for it, then for every event to arrive.
      await waitForServerTree(cache, writer, root);
      const lines = await settle(writer, log, root);
      assert.notEqual(client.sessionId, session);
      assert.deepEqual(
        lines.sort(),
        [...expectedDifferences(root), `NODE_DELETED ${root}/1/mine`].sort(),
      );
      assert.deepEqual(cacheTree(cache), await serverTree(writer, root));
    } finally {
      await client.close();
    }
  });

  it('link blackholed while nodes change: once healed the cache equals a fresh read of the tree', async () => {
    const root = await curatorTree();
    await using proxy = await FaultProxy.start({ targetPort: server.port });
    const client = await startClient(proxy.connectString, { sessionTimeoutMs: 6000 });
    try {
      await using cache = new CuratorCache(client, root);
      const log = new CacheLog(cache);
      await cache.start();
      await log.waitForLine('INITIALIZED');
      const suspended = reach(client, ConnectionState.SUSPENDED);
      proxy.blackhole();
      await changeDuringPartition(root);
      await suspended;
      await writer.setData(`${root}/1/12`, TWO);
      await writer.delete(`${root}/1/13/131`);
      const reconnected = reach(client, ConnectionState.RECONNECTED);
      proxy.heal();
      await reconnected;
      await waitForServerTree(cache, writer, root);
      assert.deepEqual(cacheTree(cache), await serverTree(writer, root));
      assert.equal(cache.get(`${root}/1/12`)?.data?.toString(), 'two');
      assert.equal(cache.get(`${root}/1/13/131`), undefined);
    } finally {
      await client.close();
    }
  });

  it('server restarted while another client churns a two-level tree: afterwards the cache equals the real tree exactly', async () => {
    const root = await writer.create(uniquePath('cc-churn'));
    const paths = ['a', 'b', 'a/x', 'a/y', 'b/x', 'c', 'c/z'].map((p) => `${root}/${p}`);
    const client = await startClient(server.connectString);
    const churner = await startClient(server.connectString);
    try {
      await using cache = new CuratorCache(client, root);
      const log = new CacheLog(cache);
      await cache.start();
      await log.waitForLine('INITIALIZED');
      let running = true;
      let operations = 0;
      const churn = (async () => {
        for (let i = 0; running; i++) {
          const path = paths[(i * 5) % paths.length]!;
          try {
            if (i % 3 === 0) await churner.delete(path);
            else if (i % 3 === 1) {
              await churner.create(path, { data: Buffer.from(`v${i}`), createParents: true });
            } else await churner.setData(path, Buffer.from(`v${i}`));
          } catch (error) {
            if (!isChurnConflict(error)) throw error;
          }
          operations++;
        }
      })();
      await waitFor(() => operations >= 30, { message: 'churn before the restart' });
      const reconnected = reach(client, ConnectionState.RECONNECTED);
      await server.restart();
      await reconnected;
      const afterRestart = operations;
      await waitFor(() => operations >= afterRestart + 30, { message: 'churn after the restart' });
      running = false;
      await churn;
      await waitForServerTree(cache, writer, root);
      assert.deepEqual(cacheTree(cache), await serverTree(writer, root));
    } finally {
      await churner.close();
      await client.close();
    }
  });

  it('server stopped: a cache started now and one running both close at once, with no unhandled rejection; after the restart a new cache loads', async () => {
    const root = await curatorTree();
    const client = await startClient(server.connectString, { sessionTimeoutMs: 30_000 });
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown): void => void rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    const unhandled: unknown[] = [];
    const subscription = client.unhandledErrors.subscribe((failure) => unhandled.push(failure));
    try {
      const running = new CuratorCache(client, root, { clearOnClose: false });
      const log = new CacheLog(running);
      await running.start();
      await log.waitForLine('INITIALIZED');
      await server.stop();
      await waitFor(() => !client.isConnected, { message: 'SUSPENDED' });
      const late = new CuratorCache(client, root);
      const errors: unknown[] = [];
      late.errors.subscribe((failure) => errors.push(failure.error));
      await late.start(); // resolves at once: the load waits for the connection
      assert.equal(late.isInitialized, false);
      assert.equal(running.size, 8); // the view stays as it was
      for (const cache of [late, running]) {
        const started = performance.now();
        await cache.close();
        const ms = performance.now() - started;
        assert.ok(ms < 1000, `close() took ${ms.toFixed(0)} ms`);
      }
      assert.equal(running.size, 8);
      assert.equal(late.size, 0);
      await server.restart();
      await client.blockUntilConnected({ timeoutMs: 20_000 });
      await using fresh = new CuratorCache(client, root);
      await fresh.start();
      await firstValueFrom(fresh.initialized.pipe(filter(Boolean)));
      assert.deepEqual(cacheTree(fresh), await serverTree(writer, root));
      assert.deepEqual(errors, []);
      assert.deepEqual(unhandled, []);
      assert.deepEqual(rejections, []);
    } finally {
      process.off('unhandledRejection', onRejection);
      subscription.unsubscribe();
      await client.close();
    }
  });
});
