// Queues called from untyped JavaScript: something that is not a client, items with no JSON
// form. Typed errors, before anything is sent.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidArgumentError, type FrameworkClient } from '@zkrecipes/framework';
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
