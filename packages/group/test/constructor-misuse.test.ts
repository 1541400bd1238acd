// Recipe constructors called from untyped JavaScript with something that is not a client: a
// typed InvalidArgumentError naming the recipe, before anything else happens.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFramework, InvalidArgumentError, type FrameworkClient } from '@zkrecipes/framework';
import { GroupMember, PersistentNode, PersistentTtlNode, SetPartitioner } from '../src/index.js';

const notClients: unknown[] = [null, undefined, {}, 'client', 42, { getChildren: () => [] }];

const constructors: [string, (client: FrameworkClient) => unknown][] = [
  ['GroupMember', (client) => new GroupMember(client, '/g', 'member-1')],
  ['PersistentNode', (client) => new PersistentNode(client, '/g/n', 'EPHEMERAL')],
  ['PersistentTtlNode', (client) => new PersistentTtlNode(client, '/g/t', 1000)],
  ['SetPartitioner', (client) => new SetPartitioner(client, '/g/s', { partitions: ['a'] })],
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
        'GroupMember',
        () => new GroupMember(client, '/g', 'm', undefined, { concurency: 2 } as never),
      ],
      [
        'PersistentNode',
        () =>
          new PersistentNode(client, '/g/n', 'EPHEMERAL', undefined, { protect: true } as never),
      ],
      [
        'PersistentTtlNode',
        () => new PersistentTtlNode(client, '/g/t', 1000, { touchFactor: 3 } as never),
      ],
      [
        'SetPartitioner',
        () => new SetPartitioner(client, '/g/s', { partitions: [], autoReleas: true } as never),
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

describe('calls given bad input', () => {
  it('waitForInitialCreate rejects a signal that is not an AbortSignal, idFromPath a non-path, with InvalidArgumentError', async () => {
    // A client that is never started: the checks come before the state check and any request.
    const client = createFramework({ connectString: '127.0.0.1:1' });
    const node = new PersistentNode(client, '/n', 'EPHEMERAL');
    const member = new GroupMember(client, '/g', 'm1');
    const fakeSignal = { aborted: false, addEventListener: () => undefined };
    for (const signal of [fakeSignal, 'x', null, 42]) {
      for (const wait of [
        () => node.waitForInitialCreate({ signal } as never),
        () => member.waitForInitialCreate({ signal } as never),
      ]) {
        await assert.rejects(
          async () => wait(),
          (error) => {
            assert.ok(error instanceof InvalidArgumentError, String(error));
            assert.match(error.message, /signal must be an AbortSignal/);
            return true;
          },
        );
      }
    }
    for (const path of [42, null, undefined, {}, [], 'm1', '/g/']) {
      assert.throws(() => member.idFromPath(path as never), InvalidArgumentError);
    }
    assert.equal(member.idFromPath('/g/m1'), 'm1');
    await client.close();
  });
});
