import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { op, type FrameworkClient, type Logger } from '@zkrecipes/framework';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import { PathChildrenCache, StartMode } from '../src/index.js';
import { EventLog } from './helpers.js';

// A real collection before each heap reading, so the figure is what the cache retains.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Data watches the server holds (`wchs` counts data watches, not child watches). */
async function dataWatchCount(server: TestingServer): Promise<number> {
  const report = await server.fourLetter('wchs');
  return Number(/Total watches:(\d+)/.exec(report)?.[1] ?? -1);
}

/** Creates `count` children `c00000...` in multi batches of 1000 (a few round trips in all). */
async function createChildren(writer: FrameworkClient, parent: string, count: number) {
  for (let start = 0; start < count; start += 1000) {
    const ops = [];
    for (let i = start; i < Math.min(start + 1000, count); i++) {
      ops.push(op.create(`${parent}/c${String(i).padStart(5, '0')}`, { data: Buffer.from('v') }));
    }
    await writer.transaction(ops);
  }
}

describe('PathChildrenCache with many children', () => {
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

  it('10,000 children: the initial load completes, and a server restart reconnects once with every watch re-registered (no reconnect loop)', async (t) => {
    const parent = await writer.create(uniquePath('pcc-scale'));
    await createChildren(writer, parent, 10_000);
    const client = await startClient(server.connectString, { sessionTimeoutMs: 10_000 });
    try {
      const states: string[] = [];
      client.on('stateChanged', (state) => {
        states.push(state);
      });
      collectGarbage();
      const heapBefore = process.memoryUsage().heapUsed;
      const started = performance.now();
      await using cache = new PathChildrenCache(client, parent);
      const log = new EventLog(cache);
      await cache.start(StartMode.POST_INITIALIZED_EVENT);
      await waitFor(() => log.events.at(-1)?.type === 'INITIALIZED', {
        message: 'INITIALIZED for 10,000 children',
        timeoutMs: 60_000,
      });
      const loadMs = performance.now() - started;
      assert.equal(log.events.length, 10_001);
      log.clear();
      collectGarbage();
      const heapMiB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
      t.diagnostic(
        `10,000 children: INITIALIZED after ${loadMs.toFixed(0)} ms; ` +
          `the cache retains ${heapMiB.toFixed(1)} MiB of heap`,
      );
      assert.equal(cache.getCurrentData().length, 10_000);
      assert.equal(await dataWatchCount(server), 10_000);

      await server.restart();
      await waitFor(() => states.includes('RECONNECTED'), { message: 'RECONNECTED' });
      // Right after a restart a reply can be lost: idempotent answers exactly.
      await writer.create(`${parent}/after-restart`, { idempotent: true });
      await log.waitForLine('CHILD_ADDED after-restart');
      await writer.setData(`${parent}/c09999`, Buffer.from('changed'));
      await log.waitForLine('CHILD_UPDATED c09999');
      // The 10,000 data watches went back in one SetWatches, which the server accepted.
      assert.equal(await dataWatchCount(server), 10_001);
      assert.deepEqual(states, ['SUSPENDED', 'RECONNECTED']);
      assert.equal(cache.getCurrentData().length, 10_001);
    } finally {
      await client.close();
    }
  });

  it('watchData: false holds one watch in total, whatever the number of children', async () => {
    const parent = await writer.create(uniquePath('pcc-nowatch'));
    await createChildren(writer, parent, 500);
    const client = await startClient(server.connectString);
    try {
      const watchesBefore = await dataWatchCount(server);
      await using cache = new PathChildrenCache(client, parent, { watchData: false });
      const log = new EventLog(cache);
      await cache.start(StartMode.BUILD_INITIAL_CACHE);
      assert.equal(cache.getCurrentData().length, 500);
      assert.equal(await dataWatchCount(server), watchesBefore);
      await writer.delete(`${parent}/c00042`);
      await log.waitForLine('CHILD_REMOVED c00042');
      assert.equal(cache.getCurrentData().length, 499);
    } finally {
      await client.close();
    }
  });

  it('past the client watch budget the cache keeps loading, unwatched, and says so once', async () => {
    const parent = await writer.create(uniquePath('pcc-budget'));
    await createChildren(writer, parent, 200);
    const warnings: string[] = [];
    const logger: Logger = {
      error: () => undefined,
      warn: (message) => warnings.push(message),
      info: () => undefined,
      debug: () => undefined,
      child: () => logger,
    };
    // Room for the parent's watch and about 40 children.
    const client = await startClient(server.connectString, { watchBudgetBytes: 1500, logger });
    try {
      await using cache = new PathChildrenCache(client, parent);
      await cache.start(StartMode.BUILD_INITIAL_CACHE);
      assert.equal(cache.getCurrentData().length, 200);
      assert.equal(warnings.filter((w) => w.startsWith('watch budget exhausted')).length, 1);
      // The parent's children watch still fits (data watches stop short of the budget), so
      // new children keep arriving: the 10k-children benchmark stalled here before.
      for (const name of ['late-1', 'late-2']) {
        await writer.create(`${parent}/${name}`);
        await waitFor(() => cache.getCurrentData(`${parent}/${name}`) !== undefined, {
          message: `${name} seen past the budget`,
        });
      }
      assert.equal(cache.getCurrentData().length, 202);
    } finally {
      await client.close();
    }
  });
});
