// Recipe constructors called from untyped JavaScript with something that is not a client: a
// typed InvalidArgumentError naming the recipe, before anything else happens.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFramework, InvalidArgumentError, type FrameworkClient } from '@zkrecipes/framework';
import { CuratorCache, NodeCache, PathChildrenCache, PersistentWatcher } from '../src/index.js';

const notClients: unknown[] = [null, undefined, {}, 'client', 42, { getChildren: () => [] }];

const constructors: [string, (client: FrameworkClient) => unknown][] = [
  ['NodeCache', (client) => new NodeCache(client, '/c')],
  ['PathChildrenCache', (client) => new PathChildrenCache(client, '/c')],
  ['CuratorCache', (client) => new CuratorCache(client, '/c')],
  ['PersistentWatcher', (client) => new PersistentWatcher(client, '/c')],
];

describe('constructors given something that is not a client', () => {
  for (const [name, construct] of constructors) {
    it(`${name} rejects each with InvalidArgumentError naming it`, () => {
      for (const notClient of notClients) {
        assert.throws(
          () => construct(notClient as FrameworkClient),
          (error) => error instanceof InvalidArgumentError && error.message.includes(name),
        );
      }
    });
  }
});

describe('constructors given an unknown option', () => {
  it('reject it with InvalidArgumentError naming the recipe and the option, with a suggestion', async () => {
    // A client that is never started: the check comes before anything is sent.
    const client = createFramework({ connectString: '127.0.0.1:1' });
    const cases: [string, () => unknown][] = [
      [
        'PathChildrenCache',
        () => new PathChildrenCache(client, '/c', { cachedata: false } as never),
      ],
      ['CuratorCache', () => new CuratorCache(client, '/c', { singlenode: true } as never)],
      [
        'PersistentWatcher',
        () => new PersistentWatcher(client, '/c', { recursve: false } as never),
      ],
    ];
    for (const [name, construct] of cases) {
      assert.throws(construct, (error) => {
        assert.ok(error instanceof InvalidArgumentError, name);
        assert.match(error.message, new RegExp(`${name}: unknown option '\\w+'`));
        assert.match(error.message, /did you mean '\w+'\?|known: /);
        return true;
      });
    }
    await client.close();
  });
});

describe('rebuilds given bad options', () => {
  it('PathChildrenCache.rebuild, rebuildNode, clearAndRefresh and NodeCache.rebuild reject an options value that is not an object, or a signal that is not an AbortSignal, with InvalidArgumentError before anything is read', async () => {
    // A client that is never started, and caches that are not: the option checks come first.
    const client = createFramework({ connectString: '127.0.0.1:1' });
    const children = new PathChildrenCache(client, '/c');
    const node = new NodeCache(client, '/c');
    const calls: [string, (options: unknown) => Promise<unknown>][] = [
      ['PathChildrenCache.rebuild', (options) => children.rebuild(options as never)],
      [
        'PathChildrenCache.rebuildNode',
        (options) => children.rebuildNode('/c/x', options as never),
      ],
      [
        'PathChildrenCache.clearAndRefresh',
        (options) => children.clearAndRefresh(options as never),
      ],
      ['NodeCache.rebuild', (options) => node.rebuild(options as never)],
    ];
    const badOptions: unknown[] = [null, 'fast', 42, [], { signal: 'abort' }, { signal: {} }];
    for (const [name, call] of calls) {
      for (const options of badOptions) {
        await assert.rejects(call(options), InvalidArgumentError, `${name}(${String(options)})`);
      }
    }
    await client.close();
  });
});
