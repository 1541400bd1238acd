// Recipe constructors called from untyped JavaScript with something that is not a client: a
// typed InvalidArgumentError naming the recipe, before anything else happens.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFramework, InvalidArgumentError, type FrameworkClient } from '@zkrecipes/framework';
import { LeaderLatch, LeaderSelector } from '../src/index.js';

const notClients: unknown[] = [null, undefined, {}, 'client', 42, { getChildren: () => [] }];

const constructors: [string, (client: FrameworkClient) => unknown][] = [
  ['LeaderLatch', (client) => new LeaderLatch(client, '/l')],
  ['LeaderSelector', (client) => new LeaderSelector(client, '/l', () => Promise.resolve())],
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
      ['LeaderLatch', () => new LeaderLatch(client, '/l', { idd: 'a' } as never)],
      [
        'LeaderSelector',
        () => new LeaderSelector(client, '/l', () => undefined, { autorequeue: true } as never),
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
