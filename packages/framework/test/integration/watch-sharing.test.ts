import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { quickClient } from './fixtures/quick-client.js';
import type { WatchedEvent } from '../../src/zk/zookeeper-types.js';

describe('one-shot watches on one path share one listener', () => {
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

  it('50 waits given up on one unchanged node leave nothing behind: no listener build-up, no warning, one watch in the budget', async () => {
    const path = uniquePath('given-up');
    await client.create(path);
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on('warning', onWarning);
    try {
      const budgetBefore = client.watchBudget.usedBytes;
      const fired: string[] = [];
      for (let i = 0; i < 50; i++) {
        const controller = new AbortController();
        await client.getData(path, {
          watch: () => fired.push(`given up ${i}`),
          signal: controller.signal,
        });
        controller.abort(); // a timed-out lock wait does exactly this
      }
      const cost = 4 + Buffer.byteLength(path);
      assert.equal(client.watchBudget.usedBytes - budgetBefore, cost, 'one watch, counted once');

      let live: WatchedEvent | undefined;
      await client.getData(path, { watch: (event) => (live = event) });
      await writer.setData(path, Buffer.from('changed'));
      await waitFor(() => live !== undefined, { message: 'the live watcher' });
      assert.deepEqual(live, { type: 'NODE_DATA_CHANGED', path });
      assert.deepEqual(fired, [], 'watchers given up are never called');
      await waitFor(() => client.watchBudget.usedBytes === budgetBefore, {
        message: 'the fired watch leaves the budget',
      });
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(
        warnings.map((w) => w.name),
        [],
        'no MaxListenersExceededWarning',
      );
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('every live watcher of a path is called once for one change, exists and getData alike', async () => {
    const path = uniquePath('shared');
    const seen: string[] = [];
    await client.exists(path, { watch: (e) => seen.push(`exists ${e.type}`) });
    await client.exists(path, { watch: (e) => seen.push(`exists2 ${e.type}`) });
    await writer.create(path);
    await waitFor(() => seen.length === 2, { message: 'both creation watchers' });
    await client.getData(path, { watch: (e) => seen.push(`data ${e.type}`) });
    await client.getChildren(path, { watch: (e) => seen.push(`children ${e.type}`) });
    await writer.delete(path);
    await waitFor(() => seen.length === 4, { message: 'the deletion watchers' });
    await client.exists('/'); // a round trip: any further event would have come first
    assert.deepEqual(seen.sort(), [
      'children NODE_DELETED',
      'data NODE_DELETED',
      'exists NODE_CREATED',
      'exists2 NODE_CREATED',
    ]);
  });
});
