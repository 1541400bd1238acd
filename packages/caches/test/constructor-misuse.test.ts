// Recipe constructors called from untyped JavaScript with something that is not a client: a
// typed InvalidArgumentError naming the recipe, before anything else happens.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidArgumentError, type FrameworkClient } from '@zkrecipes/framework';
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
