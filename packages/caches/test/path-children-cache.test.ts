import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { firstValueFrom } from 'rxjs';
import { filter } from 'rxjs/operators';
import { op, type FrameworkClient } from '@zkrecipes/framework';
import { FaultProxy, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import { PathChildrenCache, RecipeState, StartMode, type RecipeError } from '../src/index.js';
import { cachedView, EventLog } from './helpers.js';

/** The paths the server holds data watches on (`wchp`), under `under`. */
async function dataWatchedPaths(server: TestingServer, under: string): Promise<string[]> {
  const report = await server.fourLetter('wchp');
  return report
    .split('\n')
    .filter((line) => line.startsWith(`${under}/`))
    .sort();
}

/** The last operation the server processed for a session (`cons`), e.g. 'GETC'. */
async function lastOperation(server: TestingServer, sessionId: bigint): Promise<string> {
  const report = await server.fourLetter('cons');
  const line = report.split('\n').find((l) => l.includes(`sid=0x${sessionId.toString(16)},`));
  return /lop=(\w+)/.exec(line ?? '')?.[1] ?? '';
}

describe('PathChildrenCache', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  let writer: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    client = await startClient(server.connectString);
    writer = await startClient(server.connectString);
  });
  after(async () => {
    await client.close();
    await writer.close();
    await server.close();
  });

  it('POST_INITIALIZED_EVENT: 3 children give 3 CHILD_ADDED then INITIALIZED; delete gives CHILD_REMOVED; re-create gives CHILD_ADDED', async () => {
    const parent = uniquePath('pcc');
    await writer.create(parent);
    for (const name of ['a', 'b', 'c']) {
      await writer.create(`${parent}/${name}`, { data: Buffer.from(name) });
    }
    await using cache = new PathChildrenCache(client, parent);
    const log = new EventLog(cache);
    await cache.start(StartMode.POST_INITIALIZED_EVENT);
    const first = await log.waitForCount(4, 'three adds and INITIALIZED');
    assert.deepEqual(first.slice(0, 3).sort(), ['CHILD_ADDED a', 'CHILD_ADDED b', 'CHILD_ADDED c']);
    assert.equal(first[3], 'INITIALIZED');
    const initialized = log.events[3];
    assert.equal(initialized?.type, 'INITIALIZED');
    assert.deepEqual(
      initialized.type === 'INITIALIZED' ? initialized.initialData.map((c) => c.path) : [],
      [`${parent}/a`, `${parent}/b`, `${parent}/c`],
    );
    assert.deepEqual(cachedView(cache), ['a=a', 'b=b', 'c=c']);

    await writer.delete(`${parent}/b`);
    await log.waitForCount(5, 'CHILD_REMOVED');
    await writer.create(`${parent}/b`, { data: Buffer.from('again') });
    await log.waitForCount(6, 'CHILD_ADDED again');
    assert.deepEqual(log.lines.slice(4), ['CHILD_REMOVED b', 'CHILD_ADDED b']);
    assert.equal(cache.getCurrentData(`${parent}/b`)?.data?.toString(), 'again');
  });

  it('events read with for await: the same events as the listener, in order; the loop ends on close()', async () => {
    const parent = uniquePath('pcc-iter');
    await writer.create(`${parent}/a`, { createParents: true });
    const cache = new PathChildrenCache(client, parent);
    const log = new EventLog(cache);
    const looped: string[] = [];
    const loop = (async () => {
      for await (const event of cache.events) {
        looped.push('data' in event ? `${event.type} ${event.data.path}` : event.type);
      }
      return 'ended';
    })();
    await cache.start(StartMode.POST_INITIALIZED_EVENT);
    // The initial load runs in the background: b is created after it, or it would be in it.
    await log.waitForCount(2, 'CHILD_ADDED a, INITIALIZED');
    await writer.create(`${parent}/b`);
    await log.waitForCount(3, 'CHILD_ADDED a, INITIALIZED, CHILD_ADDED b');
    await waitFor(() => looped.length === 3, { message: 'the loop saw the same three' });
    assert.deepEqual(looped, [`CHILD_ADDED ${parent}/a`, 'INITIALIZED', `CHILD_ADDED ${parent}/b`]);
    await cache.close();
    assert.equal(await loop, 'ended');
  });

  it('INITIALIZED comes for an empty parent and for a missing one, which the cache never creates', async () => {
    const empty = await writer.create(uniquePath('pcc-empty'));
    await using emptyCache = new PathChildrenCache(client, empty);
    const emptyLog = new EventLog(emptyCache);
    await emptyCache.start(StartMode.POST_INITIALIZED_EVENT);
    assert.deepEqual(await emptyLog.waitForCount(1, 'INITIALIZED'), ['INITIALIZED']);

    const missing = uniquePath('pcc-missing');
    await using missingCache = new PathChildrenCache(client, missing);
    const missingLog = new EventLog(missingCache);
    await missingCache.start(StartMode.POST_INITIALIZED_EVENT);
    assert.deepEqual(await missingLog.waitForCount(1, 'INITIALIZED'), ['INITIALIZED']);
    assert.equal(await writer.exists(missing), null);
    assert.deepEqual(missingCache.getCurrentData(), []);
  });

  it('data changes give CHILD_UPDATED with the new data and Stat; cacheData: false keeps Stats only', async () => {
    const parent = await writer.create(uniquePath('pcc-update'));
    await writer.create(`${parent}/x`, { data: Buffer.from('1') });
    await using cache = new PathChildrenCache(client, parent);
    await using statsOnly = new PathChildrenCache(client, parent, { cacheData: false });
    const log = new EventLog(cache);
    const statsLog = new EventLog(statsOnly);
    await cache.start(StartMode.BUILD_INITIAL_CACHE);
    await statsOnly.start(StartMode.BUILD_INITIAL_CACHE);
    const before = cache.getCurrentData(`${parent}/x`);
    assert.equal(before?.data?.toString(), '1');
    assert.equal(statsOnly.getCurrentData(`${parent}/x`)?.data, undefined);

    await writer.setData(`${parent}/x`, Buffer.from('2'));
    await log.waitForCount(1, 'CHILD_UPDATED');
    await statsLog.waitForCount(1, 'CHILD_UPDATED (stats only)');
    assert.deepEqual(log.lines, ['CHILD_UPDATED x']);
    const after = cache.getCurrentData(`${parent}/x`);
    assert.equal(after?.data?.toString(), '2');
    assert.equal(after?.stat.version, 1);
    assert.ok(after && before && after.stat.mzxid > before.stat.mzxid);
    assert.equal(statsOnly.getCurrentData(`${parent}/x`)?.stat.version, 1);
  });

  it('BUILD_INITIAL_CACHE resolves with everything loaded and no events; NORMAL emits CHILD_ADDED and no INITIALIZED', async () => {
    const parent = await writer.create(uniquePath('pcc-modes'));
    for (const name of ['p', 'q']) await writer.create(`${parent}/${name}`);
    await using built = new PathChildrenCache(client, parent);
    const builtLog = new EventLog(built);
    await built.start(StartMode.BUILD_INITIAL_CACHE);
    assert.deepEqual(cachedView(built), ['p=', 'q=']);

    await using normal = new PathChildrenCache(client, parent);
    const normalLog = new EventLog(normal);
    await normal.start(StartMode.NORMAL);
    await normalLog.waitForCount(2, 'two adds');
    await writer.create(`${parent}/r`);
    await normalLog.waitForCount(3, 'the third add');
    await builtLog.waitForCount(1, 'the built cache sees r');
    assert.deepEqual(builtLog.lines, ['CHILD_ADDED r']);
    assert.deepEqual(normalLog.lines.slice(0, 2).sort(), ['CHILD_ADDED p', 'CHILD_ADDED q']);
    assert.deepEqual(normalLog.lines.slice(2), ['CHILD_ADDED r']);
  });

  it('a child deleted during the initial load: INITIALIZED still comes (CURATOR-476) and no watch is left on the missing node (CURATOR-107)', async () => {
    const parent = await writer.create(uniquePath('pcc-vanish'));
    for (const name of ['a', 'b', 'c']) await writer.create(`${parent}/${name}`);
    await using proxy = await FaultProxy.start({ targetPort: server.port });
    const slow = await startClient(proxy.connectString, { sessionTimeoutMs: 10_000 });
    try {
      // Every chunk takes 150 ms each way: the reads of the children reach the server ~300 ms
      // after it answered the listing, and b is deleted in between.
      proxy.delay(150);
      await using cache = new PathChildrenCache(slow, parent);
      const log = new EventLog(cache);
      await cache.start(StartMode.POST_INITIALIZED_EVENT);
      const sessionId = slow.sessionId ?? 0n;
      await waitFor(async () => (await lastOperation(server, sessionId)) === 'GETC', {
        message: 'the listing to reach the server',
        intervalMs: 2,
      });
      await writer.delete(`${parent}/b`);
      const lines = await log.waitForCount(3, 'two adds and INITIALIZED');
      assert.deepEqual(lines.slice(0, 2).sort(), ['CHILD_ADDED a', 'CHILD_ADDED c']);
      assert.equal(lines[2], 'INITIALIZED');
      assert.deepEqual(cachedView(cache), ['a=', 'c=']);
      // a and c carry data watches; b, read after its deletion, carries none.
      assert.deepEqual(await dataWatchedPaths(server, parent), [`${parent}/a`, `${parent}/c`]);
    } finally {
      await slow.close();
    }
  });

  it('keeps working when the parent is deleted and re-created (CURATOR-388)', async () => {
    const parent = uniquePath('pcc-parent');
    await using cache = new PathChildrenCache(client, parent);
    const log = new EventLog(cache);
    await cache.start(StartMode.POST_INITIALIZED_EVENT);
    await log.waitForLine('INITIALIZED');
    await writer.create(`${parent}/x`, { createParents: true });
    await log.waitForLine('CHILD_ADDED x');
    await writer.delete(parent, { deleteChildren: true });
    await log.waitForLine('CHILD_REMOVED x');
    assert.deepEqual(cache.getCurrentData(), []);
    await writer.create(`${parent}/y`, { createParents: true, data: Buffer.from('new') });
    await log.waitForLine('CHILD_ADDED y');
    assert.deepEqual(log.lines, [
      'INITIALIZED',
      'CHILD_ADDED x',
      'CHILD_REMOVED x',
      'CHILD_ADDED y',
    ]);
    assert.deepEqual(cachedView(cache), ['y=new']);
  });

  it('a child replaced atomically (one multi: delete + create) shows as CHILD_UPDATED, never as a removal', async () => {
    const parent = await writer.create(uniquePath('pcc-replace'));
    await writer.create(`${parent}/m`, { data: Buffer.from('old') });
    await using cache = new PathChildrenCache(client, parent);
    const log = new EventLog(cache);
    await cache.start(StartMode.BUILD_INITIAL_CACHE);
    await writer.transaction([
      op.delete(`${parent}/m`),
      op.create(`${parent}/m`, { data: Buffer.from('new') }),
    ]);
    await log.waitForLine('CHILD_UPDATED m');
    await writer.create(`${parent}/sentinel`);
    await log.waitForLine('CHILD_ADDED sentinel');
    assert.deepEqual(log.lines, ['CHILD_UPDATED m', 'CHILD_ADDED sentinel']);
    assert.equal(cache.getCurrentData(`${parent}/m`)?.data?.toString(), 'new');
  });

  it('caches re-created on one client and path share the watches instead of stacking watchers', async () => {
    const parent = await writer.create(uniquePath('pcc-recreate'));
    await writer.create(`${parent}/quiet`);
    const stacked: Error[] = [];
    const onWarning = (warning: Error): void => {
      if (/notification listeners/.test(warning.message)) stacked.push(warning);
    };
    process.on('warning', onWarning);
    try {
      // The wire client keeps a watcher until its node changes; "quiet" never does.
      for (let i = 0; i < 15; i++) {
        await using cache = new PathChildrenCache(client, parent);
        await cache.start(StartMode.BUILD_INITIAL_CACHE);
        assert.deepEqual(cachedView(cache), ['quiet=']);
      }
      await using last = new PathChildrenCache(client, parent);
      const log = new EventLog(last);
      await last.start(StartMode.BUILD_INITIAL_CACHE);
      await writer.setData(`${parent}/quiet`, Buffer.from('changed'));
      await log.waitForLine('CHILD_UPDATED quiet');
      assert.deepEqual(stacked, []);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('rebuild and rebuildNode reload without events; clearAndRefresh reports every child again; clearDataBytes keeps the Stat', async () => {
    const parent = await writer.create(uniquePath('pcc-rebuild'));
    for (const name of ['a', 'b']) {
      await writer.create(`${parent}/${name}`, { data: Buffer.from(name) });
    }
    await using cache = new PathChildrenCache(client, parent);
    const log = new EventLog(cache);
    await cache.start(StartMode.BUILD_INITIAL_CACHE);

    cache.clear();
    assert.deepEqual(cache.getCurrentData(), []);
    await cache.rebuild();
    assert.deepEqual(cachedView(cache), ['a=a', 'b=b']);

    assert.equal(cache.clearDataBytes(`${parent}/a`, 99), false);
    assert.equal(cache.clearDataBytes(`${parent}/a`), true);
    assert.equal(cache.getCurrentData(`${parent}/a`)?.data, undefined);
    assert.equal(cache.getCurrentData(`${parent}/a`)?.stat.version, 0);
    await cache.rebuildNode(`${parent}/a`);
    assert.equal(cache.getCurrentData(`${parent}/a`)?.data?.toString(), 'a');
    await assert.rejects(cache.rebuildNode('/elsewhere/a'), /is not a child of/);

    await cache.clearAndRefresh();
    await log.waitForCount(2, 'two adds after clearAndRefresh');
    assert.deepEqual(log.lines.sort(), ['CHILD_ADDED a', 'CHILD_ADDED b']);
    assert.deepEqual(cachedView(cache), ['a=a', 'b=b']);
  });

  it('lifecycle: start twice rejects, close twice is a no-op, close stops events; a throwing listener goes to errors and client.unhandledErrors, and the others still run', async () => {
    const parent = await writer.create(uniquePath('pcc-life'));
    const cache = new PathChildrenCache(client, parent);
    assert.equal(cache.state, RecipeState.LATENT);
    const errors: RecipeError[] = [];
    cache.errors.subscribe((error) => errors.push(error));
    const unhandled: RecipeError[] = [];
    const unhandledSubscription = client.unhandledErrors.subscribe((u) => unhandled.push(u));
    cache.on('childEvent', () => {
      throw new Error('listener bug');
    });
    const seen: string[] = [];
    const remove = cache.on('childEvent', (event) => {
      seen.push(event.type);
    });
    await cache.start();
    assert.equal(cache.state, RecipeState.STARTED);
    await assert.rejects(cache.start(), /start\(\) on a STARTED/);

    await writer.create(`${parent}/one`);
    await waitFor(() => seen.length === 1, { message: 'the second listener' });
    assert.equal(errors.length, 1);
    assert.match(String((errors[0]?.error as Error).message), /listener bug/);
    assert.equal(errors[0]?.context, 'childEvent listener');
    // The same failure, once, on the client's stream: what an application watches for all.
    assert.deepEqual(
      unhandled.filter((u) => u.error === errors[0]?.error),
      [{ error: errors[0]?.error, context: 'childEvent listener' }],
    );
    unhandledSubscription.unsubscribe();
    remove();

    const completed = firstValueFrom(cache.events.pipe(filter(() => false)), {
      defaultValue: 'completed',
    });
    await cache.close();
    await cache.close();
    assert.equal(cache.state, RecipeState.CLOSED);
    assert.equal(await completed, 'completed');
    await assert.rejects(cache.rebuild(), (e: Error) => e.name === 'ClosedError');
    await assert.rejects(cache.start(), /start\(\) on a CLOSED/);
    assert.throws(() => new PathChildrenCache(client, 'relative'), /path/);
    assert.throws(
      () => new PathChildrenCache(client, parent, { concurrency: 0 }),
      /concurrency must be a whole number >= 1/,
    );
  });
});
