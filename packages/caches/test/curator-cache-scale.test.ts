import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { filter, firstValueFrom } from 'rxjs';
import { ConnectionState, op, type FrameworkClient } from '@zkrecipes/framework';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import { CuratorCache, curatorCacheListener } from '../src/index.js';
import { CacheLog } from './curator-cache-helpers.js';

/** Watches the server holds, all sessions (`wchs`). */
async function watchCount(server: TestingServer): Promise<number> {
  const report = await server.fourLetter('wchs');
  return Number(/Total watches:(\d+)/.exec(report)?.[1] ?? -1);
}

/** Creates `node_0` ... `node_<count-1>` under `parent` in multi batches of 1000. */
async function createChildren(writer: FrameworkClient, parent: string, count: number) {
  for (let start = 0; start < count; start += 1000) {
    const ops = [];
    for (let i = start; i < Math.min(start + 1000, count); i++) {
      ops.push(op.create(`${parent}/node_${i}`, { data: Buffer.from('v') }));
    }
    await writer.transaction(ops);
  }
}

describe('CuratorCache with many nodes', () => {
  let server: TestingServer;
  let writer: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    writer = await startClient(server.connectString, { sessionTimeoutMs: 20_000 });
  });
  after(async () => {
    await writer.close();
    await server.close();
  });

  it('more than 64k children (0xFFFF + 5, CURATOR-690): INITIALIZED with every node and the root, one watch; after a server restart the re-read reports only what changed', async (t) => {
    const count = 0xffff + 5;
    const root = await writer.create(uniquePath('cc-64k'));
    const createStarted = performance.now();
    await createChildren(writer, root, count);
    t.diagnostic(
      `${count} children created in ${(performance.now() - createStarted).toFixed(0)} ms`,
    );
    const client = await startClient(server.connectString, { sessionTimeoutMs: 20_000 });
    try {
      const watchesBefore = await watchCount(server);
      const started = performance.now();
      await using cache = new CuratorCache(client, root, { cacheData: false });
      let initialized = 0;
      cache.on('event', curatorCacheListener({ forInitialized: () => void initialized++ }));
      const log = new CacheLog(cache);
      await cache.start();
      await firstValueFrom(cache.initialized.pipe(filter(Boolean)));
      const loadMs = performance.now() - started;
      t.diagnostic(`INITIALIZED after ${loadMs.toFixed(0)} ms for ${count + 1} nodes`);
      assert.equal(cache.size, count + 1);
      // A NODE_CREATED each, then INITIALIZED (delivered a microtask after the flag).
      await waitFor(() => log.events.at(-1)?.type === 'INITIALIZED');
      assert.equal(log.events.length, count + 2);
      assert.equal(await watchCount(server), watchesBefore + 1);

      const reconnected = firstValueFrom(
        client.connectionStates.pipe(filter((state) => state === ConnectionState.RECONNECTED)),
      );
      log.clear();
      const restartStarted = performance.now();
      await server.restart();
      await reconnected;
      t.diagnostic(
        `server restarted and client reconnected in ${(performance.now() - restartStarted).toFixed(0)} ms`,
      );
      await writer.blockUntilConnected({ timeoutMs: 60_000 });
      await writer.delete(`${root}/node_7`);
      await writer.setData(`${root}/node_65000`, Buffer.from('changed'));
      // Right after a restart a reply can be lost: idempotent answers exactly.
      await writer.create(`${root}/after-restart`, { idempotent: true });
      // Event reads go around the re-read of every node that follows the reconnect.
      const written = performance.now();
      await waitFor(
        () =>
          cache.get(`${root}/after-restart`) !== undefined &&
          cache.get(`${root}/node_7`) === undefined &&
          cache.get(`${root}/node_65000`)?.stat.version === 1,
        { message: 'the changes after the restart', timeoutMs: 60_000 },
      );
      t.diagnostic(
        `changes after the restart seen ${(performance.now() - written).toFixed(0)} ms after the last write`,
      );
      assert.equal(cache.size, count + 1);
      // Let the re-read of every node finish: it must report nothing else.
      const sentinel = `${root}/zz-sentinel`;
      await writer.create(sentinel);
      await log.waitForLine(`NODE_CREATED ${sentinel}=`);
      assert.deepEqual(log.lines.sort(), [
        `NODE_CHANGED ${root}/node_65000=changed`,
        `NODE_CREATED ${root}/after-restart=`,
        `NODE_CREATED ${sentinel}=`,
        `NODE_DELETED ${root}/node_7`,
      ]);
      assert.equal(initialized, 1);
    } finally {
      await client.close();
    }
  });
});
