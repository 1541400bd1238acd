// Queues called from untyped JavaScript: something that is not a client, items with no JSON
// form. Typed errors, before anything is sent.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFramework, InvalidArgumentError, type FrameworkClient } from '@zkrecipes/framework';
import { assertCallsRefuse, type RefusingCall } from '@zkrecipes/test-support';
import {
  DistributedDelayQueue,
  DistributedIdQueue,
  DistributedPriorityQueue,
  DistributedQueue,
  jsonSerializer,
  SimpleDistributedQueue,
} from '../src/index.js';

const notClients: unknown[] = [null, undefined, {}, 'client', 42, { getChildren: () => [] }];

describe('queues given bad input', () => {
  it('constructors given something that is not a client reject it with InvalidArgumentError naming the recipe', () => {
    const constructors: [string, (client: FrameworkClient) => unknown][] = [
      ['DistributedQueue', (client) => new DistributedQueue(client, '/q')],
      ['SimpleDistributedQueue', (client) => new SimpleDistributedQueue(client, '/q')],
      ['DistributedPriorityQueue', (client) => new DistributedPriorityQueue(client, '/q')],
      ['DistributedDelayQueue', (client) => new DistributedDelayQueue(client, '/q')],
      ['DistributedIdQueue', (client) => new DistributedIdQueue(client, '/q')],
    ];
    for (const [name, construct] of constructors) {
      for (const notClient of notClients) {
        assert.throws(
          () => construct(notClient as FrameworkClient),
          (error) => error instanceof InvalidArgumentError && error.message.includes(name),
        );
      }
    }
  });

  it('jsonSerializer refuses a cycle, a BigInt, undefined and a function with InvalidArgumentError', () => {
    const serializer = jsonSerializer<unknown>();
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    for (const item of [cycle, 10n, { n: 1n }, undefined, () => 1]) {
      assert.throws(
        () => serializer.serialize(item),
        (error) => error instanceof InvalidArgumentError && /no JSON form/.test(error.message),
      );
    }
    assert.deepEqual(serializer.deserialize(Buffer.from(serializer.serialize({ a: [1] }))), {
      a: [1],
    });
  });
});

describe('constructors given an unknown option', () => {
  it('reject it with InvalidArgumentError naming the recipe and the option, with a suggestion', async () => {
    // A client that is never started: the check comes before anything is sent.
    const client = createFramework({ connectString: '127.0.0.1:1' });
    const cases: [string, () => unknown][] = [
      [
        'DistributedQueue',
        () => new DistributedQueue(client, '/q', { lockpath: '/q-lock' } as never),
      ],
      [
        'SimpleDistributedQueue',
        () => new SimpleDistributedQueue(client, '/q', { sessionTimeout: 5 } as never),
      ],
      [
        'DistributedPriorityQueue',
        () => new DistributedPriorityQueue(client, '/q', { minItems: 1 } as never),
      ],
      [
        'DistributedDelayQueue',
        () => new DistributedDelayQueue(client, '/q', { minItemsBeforeRefresh: 1 } as never),
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

describe('calls given options that are not an object', () => {
  it('SimpleDistributedQueue calls reject an array or a primitive with InvalidArgumentError before anything is sent', async () => {
    // A client that is never started: the check comes before anything is sent.
    const client = createFramework({ connectString: '127.0.0.1:1' });
    const simple = new SimpleDistributedQueue(client, '/s');
    const item = Buffer.from('x');
    const calls: RefusingCall[] = [
      ['offer', (options) => simple.offer(item, options)],
      ['take', (options) => simple.take(options)],
      ['poll', (options) => simple.poll(options)],
      ['peek', (options) => simple.peek(options)],
      ['element', (options) => simple.element(options)],
      ['remove', (options) => simple.remove(options)],
    ];
    await assertCallsRefuse(
      calls,
      [[], [{ timeoutMs: 0 }], 'x', 0, null],
      /options must be an object; got/,
    );
    await simple.close();
    await client.close();
  });

  it('SimpleDistributedQueue calls refuse an option they do not have (a typo of timeoutMs would wait with no limit) before anything is sent', async () => {
    const client = createFramework({ connectString: '127.0.0.1:1' });
    const simple = new SimpleDistributedQueue(client, '/s');
    for (const call of [
      () => simple.take({ timeout: 5000 } as never),
      () => simple.poll({ timeoutMS: 0 } as never),
      () => simple.offer(Buffer.from('x'), { signl: AbortSignal.timeout(10) } as never),
    ]) {
      await assert.rejects(call(), (error) => {
        assert.ok(error instanceof InvalidArgumentError, String(error));
        assert.match(error.message, /unknown option '\w+' \(did you mean '(timeoutMs|signal)'\?\)/);
        return true;
      });
    }
    await simple.close();
    await client.close();
  });
});
