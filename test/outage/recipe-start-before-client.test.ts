// A long-lived recipe started on a client that is not started yet, or closed: its start()
// rejects as the client's own calls do (IllegalStateError, ClosedError) before anything is
// sent or left running in the background, and it can be started once the client is.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SharedCount, SharedValue } from '@zkrecipes/atomic';
import {
  CuratorCache,
  NodeCache,
  PathChildrenCache,
  PersistentWatcher,
  StartMode,
} from '@zkrecipes/caches';
import {
  createServiceInstance,
  ServiceCache,
  ServiceDiscovery,
  ServiceProvider,
} from '@zkrecipes/discovery';
import {
  createFramework,
  CreateMode,
  type FrameworkClient,
  isClosed,
  isIllegalState,
  type UnhandledError,
} from '@zkrecipes/framework';
import { GroupMember, PersistentNode, PersistentTtlNode, SetPartitioner } from '@zkrecipes/group';
import { LeaderSelector } from '@zkrecipes/leader';
import {
  DistributedDelayQueue,
  DistributedIdQueue,
  DistributedPriorityQueue,
  DistributedQueue,
} from '@zkrecipes/queues';
import { TestingServer, uniquePath } from '@zkrecipes/testing';

interface Startable {
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Every long-lived recipe, each under its own path (the one it would create first). */
function everyRecipe(client: FrameworkClient): { name: string; path: string; recipe: Startable }[] {
  const base = uniquePath('before-client');
  const discovery = new ServiceDiscovery(client, `${base}/discovery-cached`);
  const recipes: [string, (path: string) => Startable][] = [
    ['SharedValue', (path) => new SharedValue(client, path, Buffer.from('seed'))],
    ['SharedCount', (path) => new SharedCount(client, path, 7)],
    ['CuratorCache', (path) => new CuratorCache(client, path)],
    ['NodeCache', (path) => new NodeCache(client, path)],
    ['PathChildrenCache', (path) => new PathChildrenCache(client, path)],
    ['PersistentWatcher', (path) => new PersistentWatcher(client, path)],
    [
      'ServiceDiscovery',
      (path) =>
        new ServiceDiscovery(client, path, {
          thisInstance: createServiceInstance({ name: 'api', id: 'one' }),
        }),
    ],
    ['ServiceCache', () => new ServiceCache(discovery, 'cache')],
    ['ServiceProvider', () => new ServiceProvider(discovery, 'provider')],
    ['GroupMember', (path) => new GroupMember(client, path, 'member')],
    ['PersistentNode', (path) => new PersistentNode(client, path, CreateMode.PERSISTENT)],
    ['PersistentTtlNode', (path) => new PersistentTtlNode(client, path, 60_000)],
    ['SetPartitioner', (path) => new SetPartitioner(client, path, { partitions: ['a'] })],
    ['LeaderSelector', (path) => new LeaderSelector(client, path, () => undefined)],
    ['DistributedQueue', (path) => new DistributedQueue(client, path)],
    ['DistributedPriorityQueue', (path) => new DistributedPriorityQueue(client, path)],
    ['DistributedDelayQueue', (path) => new DistributedDelayQueue(client, path)],
    ['DistributedIdQueue', (path) => new DistributedIdQueue(client, path)],
  ];
  return recipes.map(([name, make]) => {
    const path = `${base}/${name}`;
    return { name, path, recipe: make(path) };
  });
}

function collectUnhandled(client: FrameworkClient): UnhandledError[] {
  const seen: UnhandledError[] = [];
  client.unhandledErrors.subscribe((failure) => seen.push(failure));
  return seen;
}

describe('recipe start() on a client that is not started, or closed', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start({ extendedTypesEnabled: true });
  });
  after(async () => {
    await server.close();
  });

  it('every recipe rejects IllegalStateError before the client starts and ClosedError after it closes, creates nothing and reports nothing', async () => {
    const client = createFramework({ connectString: server.connectString });
    const unhandled = collectUnhandled(client);
    const recipes = everyRecipe(client);
    for (const { name, recipe } of recipes) {
      await assert.rejects(recipe.start(), isIllegalState, `${name} before the client's start()`);
    }
    await client.start();
    try {
      for (const { name, path } of recipes) {
        assert.equal(await client.exists(path), null, `${name} created ${path}`);
      }
    } finally {
      await client.close();
    }
    // Still LATENT: a recipe left started would reject a second start with IllegalStateError.
    for (const { name, recipe } of recipes) {
      await assert.rejects(recipe.start(), isClosed, `${name} after the client's close()`);
    }
    for (const { recipe } of recipes) await recipe.close();
    assert.deepEqual(
      unhandled.map(({ context, error }) => `${context}: ${String(error)}`),
      [],
    );
  });

  it('a PathChildrenCache, a GroupMember and a LeaderSelector refused before the client starts start afterwards and work', async () => {
    const client = createFramework({ connectString: server.connectString });
    const unhandled = collectUnhandled(client);
    const base = uniquePath('started-later');
    const cache = new PathChildrenCache(client, `${base}/cache`);
    const member = new GroupMember(client, `${base}/group`, 'member');
    let led!: () => void;
    const leading = new Promise<void>((resolve) => (led = resolve));
    const selector = new LeaderSelector(client, `${base}/leader`, () => led());
    await assert.rejects(cache.start(StartMode.BUILD_INITIAL_CACHE), isIllegalState);
    await assert.rejects(member.start(), isIllegalState);
    await assert.rejects(selector.start(), isIllegalState);
    await client.start();
    try {
      await client.create(`${base}/cache/child`, { createParents: true });
      await cache.start(StartMode.BUILD_INITIAL_CACHE);
      assert.deepEqual(
        cache.getCurrentData().map(({ path }) => path),
        [`${base}/cache/child`],
      );
      await member.start();
      assert.equal(await member.waitForInitialCreate({ timeoutMs: 10_000 }), true);
      assert.deepEqual(await client.getChildren(`${base}/group`), ['member']);
      await selector.start();
      await leading;
    } finally {
      await selector.close();
      await member.close();
      await cache.close();
      await client.close();
    }
    assert.deepEqual(unhandled, []);
  });
});
