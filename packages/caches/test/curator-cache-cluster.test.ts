import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { filter, firstValueFrom } from 'rxjs';
import { ConnectionState } from '@zkrecipes/framework';
import { TestingCluster, uniquePath, waitFor } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import { CuratorCache } from '../src/index.js';
import {
  cacheTree,
  CacheLog,
  isChurnConflict,
  serverTree,
  waitForServerTree,
} from './curator-cache-helpers.js';

describe('CuratorCache on a 3-server ensemble', () => {
  let cluster: TestingCluster;
  before(async () => {
    cluster = await TestingCluster.start({ size: 3 });
  });
  after(() => cluster.close());

  it('the ZooKeeper leader killed while another client churns the subtree: after RECONNECTED the cache equals a fresh read (testServerLoss, TestCuratorCacheConsistency)', async () => {
    const client = await startClient(cluster.connectString, { sessionTimeoutMs: 10_000 });
    const churner = await startClient(cluster.connectString, { sessionTimeoutMs: 10_000 });
    try {
      const root = await churner.create(uniquePath('cc-cluster'));
      for (const name of ['one', 'two', 'three']) await churner.create(`${root}/${name}`);
      await using cache = new CuratorCache(client, root);
      const log = new CacheLog(cache);
      await cache.start();
      await log.waitForLine('INITIALIZED');
      assert.equal(cache.size, 4);

      const paths = ['a', 'a/x', 'b', 'b/y', 'one/z'].map((p) => `${root}/${p}`);
      let running = true;
      let operations = 0;
      const churn = (async () => {
        for (let i = 0; running; i++) {
          const path = paths[(i * 3) % paths.length]!;
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
      await waitFor(() => operations >= 20, { message: 'churn before the kill' });
      const reconnected = firstValueFrom(
        client.connectionStates.pipe(filter((state) => state === ConnectionState.RECONNECTED)),
      );
      await cluster.killServer(await cluster.findLeader());
      await reconnected;
      const afterKill = operations;
      await waitFor(() => operations >= afterKill + 20, {
        message: 'churn after the kill',
        timeoutMs: 30_000,
      });
      running = false;
      await churn;
      await waitForServerTree(cache, churner, root);
      assert.deepEqual(cacheTree(cache), await serverTree(churner, root));
      assert.ok(cache.get(`${root}/one`) && cache.get(`${root}/two`) && cache.get(`${root}/three`));
    } finally {
      await churner.close();
      await client.close();
    }
  });
});
