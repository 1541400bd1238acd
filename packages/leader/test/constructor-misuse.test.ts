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

describe('LeaderSelector given a listener object', () => {
  it('refuses Curator listener members (stateChanged, doNotProxy) that are given but not functions, naming the member', async () => {
    // A client that is never started: the check comes before anything is sent.
    const client = createFramework({ connectString: '127.0.0.1:1' });
    const takeLeadership = (): undefined => undefined;
    for (const member of ['stateChanged', 'doNotProxy']) {
      for (const value of [42, 'x', {}, null, true]) {
        const listener = { takeLeadership, [member]: value } as never;
        assert.throws(
          () => new LeaderSelector(client, '/l', listener),
          (error) =>
            error instanceof InvalidArgumentError &&
            error.message.includes(`listener.${member} must be a function`),
          `${member}: ${JSON.stringify(value)}`,
        );
      }
    }
    // Absent, undefined or a function: accepted.
    for (const listener of [
      { takeLeadership },
      { takeLeadership, stateChanged: undefined },
      { takeLeadership, stateChanged: () => undefined, doNotProxy: () => false },
    ]) {
      assert.ok(new LeaderSelector(client, '/l', listener) instanceof LeaderSelector);
    }
    await client.close();
  });
});

describe('participant queries given bad options', () => {
  it('getParticipants and getLeader reject an options value that is not an object, or a signal that is not an AbortSignal, with InvalidArgumentError before anything is sent', async () => {
    // A client that is never started: a query that got past its checks would wait for a
    // connection, so an InvalidArgumentError shows the check comes first.
    const client = createFramework({ connectString: '127.0.0.1:1' });
    const latch = new LeaderLatch(client, '/l');
    const selector = new LeaderSelector(client, '/s', () => undefined);
    const queries: [string, (options: unknown) => Promise<unknown>][] = [
      ['LeaderLatch.getParticipants', (options) => latch.getParticipants(options as never)],
      ['LeaderLatch.getLeader', (options) => latch.getLeader(options as never)],
      ['LeaderSelector.getParticipants', (options) => selector.getParticipants(options as never)],
      ['LeaderSelector.getLeader', (options) => selector.getLeader(options as never)],
    ];
    const badOptions: unknown[] = [null, 'fast', 42, [], { signal: 'abort' }, { signal: {} }];
    for (const [name, query] of queries) {
      for (const options of badOptions) {
        await assert.rejects(query(options), InvalidArgumentError, `${name}(${String(options)})`);
      }
    }
    await client.close();
  });
});

describe('on() given bad input', () => {
  it('an event that is a BigInt, a Symbol or unknown, or a listener that is not a function: InvalidArgumentError', async () => {
    const client = createFramework({ connectString: '127.0.0.1:1' });
    const latch = new LeaderLatch(client, '/l');
    const selector = new LeaderSelector(client, '/s', () => Promise.resolve());
    for (const target of [latch, selector]) {
      for (const event of [10n, Symbol('isLeader'), 'leader', undefined]) {
        assert.throws(
          () => target.on(event as never, () => undefined),
          (error) => error instanceof InvalidArgumentError && /unknown event/.test(error.message),
        );
      }
      for (const listener of [null, 'f', 10n, {}]) {
        assert.throws(
          () => target.on('isLeader', listener as never),
          (error) =>
            error instanceof InvalidArgumentError &&
            /listener must be a function/.test(error.message),
        );
      }
    }
    await client.close();
  });
});
