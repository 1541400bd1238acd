import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { firstValueFrom, filter } from 'rxjs';
import {
  IllegalStateError,
  InvalidArgumentError,
  RecipeState,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import { CuratorCache, curatorCacheListener, type ChildData } from '../src/index.js';
import { cacheTree, CacheLog, serverTree, settle } from './curator-cache-helpers.js';

async function initialized(cache: CuratorCache): Promise<void> {
  await firstValueFrom(cache.initialized.pipe(filter(Boolean)));
}

describe('CuratorCache', () => {
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

  it('loads the whole tree, the root included, then INITIALIZED; an afterInitialized listener sees only INITIALIZED (testAfterInitialized)', async () => {
    const root = uniquePath('cc-initial');
    await client.create(`${root}/one/two/three`, { createParents: true, data: Buffer.from('3') });
    await using cache = new CuratorCache(client, root);
    const log = new CacheLog(cache);
    const seen: string[] = [];
    cache.on(
      'event',
      curatorCacheListener({
        forAll: (event) => void seen.push(event.type),
        afterInitialized: true,
      }),
    );
    assert.equal(cache.state, RecipeState.LATENT);
    await cache.start();
    assert.equal(cache.state, RecipeState.STARTED);
    await log.waitForLine('INITIALIZED');
    assert.equal(cache.isInitialized, true);
    assert.equal(cache.size, 4);
    for (const path of [root, `${root}/one`, `${root}/one/two`, `${root}/one/two/three`]) {
      assert.ok(cache.get(path), path);
    }
    assert.equal(cache.get(`${root}/one/two/three`)?.data?.toString(), '3');
    assert.deepEqual(
      log.lines.slice(0, -1).sort(),
      [
        `NODE_CREATED ${root}/one/two/three=3`,
        `NODE_CREATED ${root}/one/two=`,
        `NODE_CREATED ${root}/one=`,
        `NODE_CREATED ${root}=`,
      ].sort(),
    );
    assert.equal(log.lines.at(-1), 'INITIALIZED');
    await waitFor(() => seen.length === 1);
    assert.deepEqual(seen, ['INITIALIZED']);
    assert.deepEqual(cacheTree(cache), await serverTree(client, root));
  });

  it('events and initialized read with for await: the initial load, INITIALIZED, a change, the end on close()', async () => {
    const root = uniquePath('cc-iter');
    await client.create(`${root}/a`, { createParents: true, data: Buffer.from('1') });
    const cache = new CuratorCache(client, root);
    const types: string[] = [];
    const events = (async () => {
      for await (const event of cache.events) {
        types.push(
          event.type === 'INITIALIZED'
            ? 'INITIALIZED'
            : `${event.type} ${(event.data ?? event.oldData)?.path ?? ''}`,
        );
      }
      return 'ended';
    })();
    const states: boolean[] = [];
    const initializedStates = (async () => {
      for await (const done of cache.initialized) states.push(done);
      return 'ended';
    })();
    await cache.start();
    await waitFor(() => types.includes('INITIALIZED'), { message: 'INITIALIZED' });
    await client.setData(`${root}/a`, Buffer.from('2'));
    await waitFor(() => types.includes(`NODE_CHANGED ${root}/a`), { message: 'the change' });
    await cache.close();
    assert.equal(await events, 'ended');
    assert.equal(await initializedStates, 'ended');
    assert.deepEqual(types.slice(0, 2).sort(), [`NODE_CREATED ${root}`, `NODE_CREATED ${root}/a`]);
    assert.deepEqual(states, [false, true]);
  });

  it('the listener builder calls each handler for its kind of event only (testListenerBuilder)', async () => {
    const root = uniquePath('cc-builder');
    await using cache = new CuratorCache(client, root);
    const calls: string[] = [];
    cache.on(
      'event',
      curatorCacheListener({
        forAll: (event) => void calls.push(`all:${event.type}`),
        forCreates: (node) => void calls.push(`creates:${node.data?.toString()}`),
        forChanges: (old, node) =>
          void calls.push(`changes:${old.data?.toString()}>${node.data?.toString()}`),
        forCreatesAndChanges: (old, node) =>
          void calls.push(
            `createsAndChanges:${old?.data?.toString() ?? '-'}>${node.data?.toString()}`,
          ),
        forDeletes: (old) => void calls.push(`deletes:${old.data?.toString()}`),
        forInitialized: () => void calls.push('initialized'),
      }),
    );
    await cache.start();
    await initialized(cache);
    await waitFor(() => calls.includes('initialized'));
    await client.create(root, { data: Buffer.from('a') });
    await waitFor(() => calls.length >= 5);
    await client.setData(root, Buffer.from('b'));
    await waitFor(() => calls.length >= 8);
    await client.delete(root);
    await waitFor(() => calls.length >= 10);
    assert.deepEqual(calls, [
      'all:INITIALIZED',
      'initialized',
      'all:NODE_CREATED',
      'creates:a',
      'createsAndChanges:->a',
      'all:NODE_CHANGED',
      'changes:a>b',
      'createsAndChanges:a>b',
      'all:NODE_DELETED',
      'deletes:b',
    ]);
    assert.equal(cache.size, 0);
  });

  it('with cacheData false the storage keeps Stats only while events carry the bytes (testUpdateWhenNotCachingData)', async () => {
    const root = await client.create(uniquePath('cc-nodata'));
    await using cache = new CuratorCache(client, root, { cacheData: false });
    const changes: [ChildData, ChildData][] = [];
    const creates: ChildData[] = [];
    cache.on(
      'event',
      curatorCacheListener({ forChanges: (old, node) => void changes.push([old, node]) }),
    );
    cache.on('event', curatorCacheListener({ forCreates: (node) => void creates.push(node) }));
    await cache.start();
    await initialized(cache);
    await client.create(`${root}/foo`, { data: Buffer.from('first') });
    await waitFor(() => creates.some((node) => node.path === `${root}/foo`));
    assert.equal(creates.find((node) => node.path === `${root}/foo`)?.data?.toString(), 'first');
    await client.setData(`${root}/foo`, Buffer.from('something new'));
    await waitFor(() => changes.length === 1);
    const [old, node] = changes[0]!;
    assert.equal(old.data, undefined);
    assert.equal(node.data?.toString(), 'something new');
    assert.equal(cache.get(`${root}/foo`)?.data, undefined);
    assert.equal(cache.get(`${root}/foo`)?.stat.version, 1);
  });

  it('clearOnClose false keeps the view readable after close; the default empties it (testClearOnClose)', async () => {
    const root = uniquePath('cc-clear');
    const kept = new CuratorCache(client, root, { clearOnClose: false });
    const log = new CacheLog(kept);
    await kept.start();
    await client.create(root, { data: Buffer.from('foo') });
    await client.create(`${root}/bar`, { data: Buffer.from('bar') });
    await log.waitForLine(`NODE_CREATED ${root}/bar=bar`);
    await kept.close();
    assert.equal(kept.state, RecipeState.CLOSED);
    assert.equal(kept.size, 2);
    assert.equal(kept.get(`${root}/bar`)?.data?.toString(), 'bar');

    const cleared = new CuratorCache(client, root);
    await cleared.start();
    await initialized(cleared);
    assert.equal(cleared.size, 2);
    await cleared.close();
    assert.equal(cleared.size, 0);
    await kept.close(); // twice is a no-op
  });

  it('singleNode caches the root alone: its changes are reported, its children ignored (SINGLE_NODE_CACHE)', async () => {
    const root = await client.create(uniquePath('cc-single'), { data: Buffer.from('v1') });
    await client.create(`${root}/child`);
    await using cache = new CuratorCache(client, root, { singleNode: true });
    const log = new CacheLog(cache);
    await cache.start();
    await log.waitForLine('INITIALIZED');
    assert.deepEqual(log.lines, [`NODE_CREATED ${root}=v1`, 'INITIALIZED']);
    await client.create(`${root}/other`);
    await client.setData(`${root}/child`, Buffer.from('x'));
    await client.setData(root, Buffer.from('v2'));
    await log.waitForLine(`NODE_CHANGED ${root}=v2`);
    await client.delete(root, { deleteChildren: true });
    await log.waitForLine(`NODE_DELETED ${root}`);
    assert.deepEqual(log.lines, [
      `NODE_CREATED ${root}=v1`,
      'INITIALIZED',
      `NODE_CHANGED ${root}=v2`,
      `NODE_DELETED ${root}`,
    ]);
    assert.equal(cache.size, 0);
  });

  it('a missing root: INITIALIZED with an empty view, then the subtree as it is built, torn down and built again', async () => {
    const root = uniquePath('cc-missing');
    await using cache = new CuratorCache(client, root);
    const log = new CacheLog(cache);
    await cache.start();
    await log.waitForLine('INITIALIZED');
    assert.equal(cache.size, 0);
    await client.create(`${root}/a/b`, { createParents: true, data: Buffer.from('b') });
    await log.waitForLine(`NODE_CREATED ${root}/a/b=b`);
    await client.setData(`${root}/a`, Buffer.from('a'));
    await log.waitForLine(`NODE_CHANGED ${root}/a=a`);
    assert.deepEqual(cacheTree(cache), await serverTree(client, root));
    await client.delete(root, { deleteChildren: true });
    await log.waitForLine(`NODE_DELETED ${root}`);
    assert.deepEqual(log.lines.filter((line) => line.startsWith('NODE_DELETED')).sort(), [
      `NODE_DELETED ${root}`,
      `NODE_DELETED ${root}/a`,
      `NODE_DELETED ${root}/a/b`,
    ]);
    assert.equal(cache.size, 0);
    // Deleted (or reaped as an empty container) and made again: followed, as CURATOR-388 asks.
    await client.create(`${root}/again`, { createParents: true, data: Buffer.from('2') });
    await log.waitForLine(`NODE_CREATED ${root}/again=2`);
    assert.deepEqual(cacheTree(cache), await serverTree(client, root));
  });

  it('a pathFilter keeps the handlers to the paths it accepts', async () => {
    const root = await client.create(uniquePath('cc-filter'));
    await using cache = new CuratorCache(client, root);
    const log = new CacheLog(cache);
    const created: string[] = [];
    cache.on(
      'event',
      curatorCacheListener({
        forCreates: (node) => void created.push(node.path),
        pathFilter: (path) => path.endsWith('-keep'),
      }),
    );
    await cache.start();
    await client.create(`${root}/a-keep`);
    await client.create(`${root}/b-drop`);
    await client.create(`${root}/c-keep`);
    await log.waitForLine(`NODE_CREATED ${root}/c-keep=`);
    await settle(client, log, root);
    assert.deepEqual(created, [`${root}/a-keep`, `${root}/c-keep`]);
  });

  it("works through a namespace view: paths are the view's", async () => {
    const namespace = uniquePath('cc-ns').slice(1);
    const view = client.usingNamespace(namespace);
    await view.create('/app/x', { createParents: true, data: Buffer.from('x') });
    await using cache = new CuratorCache(view, '/app');
    const log = new CacheLog(cache);
    await cache.start();
    await log.waitForLine('INITIALIZED');
    assert.deepEqual(
      cache.stream().map((node) => node.path),
      ['/app', '/app/x'],
    );
    await client.setData(`/${namespace}/app/x`, Buffer.from('y'));
    await log.waitForLine('NODE_CHANGED /app/x=y');
  });

  it('a setData with equal bytes is a change (a new version), a read with nothing new is not', async () => {
    const root = await client.create(uniquePath('cc-version'), { data: Buffer.from('same') });
    await using cache = new CuratorCache(client, root);
    const log = new CacheLog(cache);
    await cache.start();
    await log.waitForLine('INITIALIZED');
    await client.setData(root, Buffer.from('same'));
    await log.waitForLine(`NODE_CHANGED ${root}=same`);
    assert.deepEqual(await settle(client, log, root), [
      `NODE_CREATED ${root}=same`,
      'INITIALIZED',
      `NODE_CHANGED ${root}=same`,
    ]);
    assert.equal(cache.get(root)?.stat.version, 1);
  });

  it('bad input fails with typed errors before anything is sent; start() twice and unknown events are refused', async () => {
    assert.throws(() => new CuratorCache({} as FrameworkClient, '/x'), InvalidArgumentError);
    assert.throws(() => new CuratorCache(client, 'relative'), InvalidArgumentError);
    assert.throws(() => new CuratorCache(client, '/x/'), InvalidArgumentError);
    assert.throws(() => new CuratorCache(client, '/x', { concurrency: 0 }), InvalidArgumentError);
    assert.throws(
      () => new CuratorCache(client, '/x', { singleNode: 'yes' as unknown as boolean }),
      InvalidArgumentError,
    );
    assert.throws(() => curatorCacheListener({}), InvalidArgumentError);
    assert.throws(
      () => curatorCacheListener({ forCreates: 'no' as unknown as () => void }),
      InvalidArgumentError,
    );
    assert.throws(
      () => curatorCacheListener({ forAll: () => 1, pathFilter: 3 as unknown as () => boolean }),
      InvalidArgumentError,
    );
    const cache = new CuratorCache(client, uniquePath('cc-misuse'));
    assert.throws(() => cache.on('bogus' as 'event', () => 1), InvalidArgumentError);
    await cache.start();
    await assert.rejects(cache.start(), IllegalStateError);
    await cache.close();
    await assert.rejects(cache.start(), IllegalStateError);
  });

  it('a listener that throws reaches errors and does not stop the others', async () => {
    const root = await client.create(uniquePath('cc-throw'));
    await using cache = new CuratorCache(client, root);
    const errors: unknown[] = [];
    cache.errors.subscribe((failure) => errors.push(failure.error));
    cache.on('event', () => {
      throw new Error('listener broke');
    });
    cache.on('event', () => Promise.reject(new Error('async listener broke')));
    const log = new CacheLog(cache);
    await cache.start();
    await log.waitForLine('INITIALIZED');
    await waitFor(() => errors.length >= 4);
    assert.ok(
      errors.every((error) => error instanceof Error && /listener broke/.test(error.message)),
    );
  });
});
