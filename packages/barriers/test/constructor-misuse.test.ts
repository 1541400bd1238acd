// Recipe constructors called from untyped JavaScript with something that is not a client: a
// typed InvalidArgumentError naming the recipe, before anything else happens.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFramework, InvalidArgumentError, type FrameworkClient } from '@zkrecipes/framework';
import { assertCallsRefuse, type RefusingCall } from '@zkrecipes/test-support';
import { DistributedBarrier, DistributedDoubleBarrier } from '../src/index.js';

const notClients: unknown[] = [null, undefined, {}, 'client', 42, { getChildren: () => [] }];

const constructors: [string, (client: FrameworkClient) => unknown][] = [
  ['DistributedBarrier', (client) => new DistributedBarrier(client, '/b')],
  ['DistributedDoubleBarrier', (client) => new DistributedDoubleBarrier(client, '/b', 2)],
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

describe('calls given options that are not an object', () => {
  it('setBarrier, removeBarrier, waitOnBarrier, enter and leave reject an array or a primitive before anything is sent', async () => {
    // A client that is never started: the check comes before anything is sent.
    const client = createFramework({ connectString: '127.0.0.1:1' });
    const barrier = new DistributedBarrier(client, '/b');
    const double = new DistributedDoubleBarrier(client, '/d', 2);
    const calls: RefusingCall[] = [
      ['setBarrier', (options) => barrier.setBarrier(options)],
      ['removeBarrier', (options) => barrier.removeBarrier(options)],
      ['waitOnBarrier', (options) => barrier.waitOnBarrier(options)],
      ['enter', (options) => double.enter(options)],
      ['leave', (options) => double.leave(options)],
    ];
    await assertCallsRefuse(
      calls,
      [[], [{ timeoutMs: 0 }], 'x', 0, null],
      /options must be an object; got/,
    );
    assert.equal(double.phase, 'IDLE');
    await client.close();
  });
});
