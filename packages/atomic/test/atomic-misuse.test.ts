// Bad input to DistributedAtomicValue and DistributedAtomicLong gets a typed error before
// anything is sent.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FrameworkClient, isInvalidArgument, RetryOneTime } from '@zkrecipes/framework';
import { TestingServer, uniquePath } from '@zkrecipes/testing';
import { connect } from '@zkrecipes/test-support';
import { DistributedAtomicLong, DistributedAtomicValue } from '../src/index.js';

describe('DistributedAtomicValue and DistributedAtomicLong misuse', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    client = await connect(server.connectString);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('constructors refuse a bad client, path, retry policy or promotion', () => {
    const policy = new RetryOneTime({ sleepBetweenRetryMs: 1 });
    const bad: [string, () => unknown][] = [
      ['client', () => new DistributedAtomicLong(null as unknown as FrameworkClient, '/a', policy)],
      ['path', () => new DistributedAtomicLong(client, 'a', policy)],
      ['policy', () => new DistributedAtomicLong(client, '/a', {} as RetryOneTime)],
      [
        'no policy',
        () => new DistributedAtomicValue(client, '/a', undefined as unknown as RetryOneTime),
      ],
      ['options', () => new DistributedAtomicLong(client, '/a', policy, 3 as unknown as object)],
      [
        'unknown option',
        () => new DistributedAtomicLong(client, '/a', policy, { promoted: {} } as never),
      ],
      [
        'lock path',
        () =>
          new DistributedAtomicLong(client, '/a', policy, { promotedToLock: { lockPath: 'x' } }),
      ],
      [
        'no lock path',
        () =>
          new DistributedAtomicLong(client, '/a', policy, {
            promotedToLock: {} as { lockPath: string },
          }),
      ],
      [
        'lock policy',
        () =>
          new DistributedAtomicLong(client, '/a', policy, {
            promotedToLock: { lockPath: '/l', retryPolicy: 1 as unknown as RetryOneTime },
          }),
      ],
      [
        'lock time',
        () =>
          new DistributedAtomicLong(client, '/a', policy, {
            promotedToLock: { lockPath: '/l', maxLockTimeMs: -1 },
          }),
      ],
    ];
    for (const [what, make] of bad) assert.throws(make, isInvalidArgument, what);
  });

  it('an unknown option is named with the class it was given to, a misspelt promotion key too', () => {
    const policy = new RetryOneTime({ sleepBetweenRetryMs: 1 });
    assert.throws(
      () => new DistributedAtomicLong(client, '/a', policy, { bogus: 1 } as never),
      /DistributedAtomicLong: unknown option 'bogus'/,
    );
    assert.throws(
      () =>
        new DistributedAtomicLong(client, '/a', policy, {
          promotedToLock: { lockPath: '/l', maxLockTime: 5 } as never,
        }),
      (error: unknown) =>
        isInvalidArgument(error) &&
        /promotedToLock: unknown option 'maxLockTime' \(did you mean 'maxLockTimeMs'\?\)/.test(
          (error as Error).message,
        ),
    );
  });

  it('calls refuse values that are not Java longs or bytes, and bad options; nothing is written', async () => {
    const path = uniquePath('misuse');
    const policy = new RetryOneTime({ sleepBetweenRetryMs: 1 });
    const counter = new DistributedAtomicLong(client, path, policy);
    const value = new DistributedAtomicValue(client, `${path}-bytes`, policy);
    for (const [what, call] of [
      ['2^63', () => counter.forceSet(2n ** 63n)],
      ['-2^63-1', () => counter.add(-(2n ** 63n) - 1n)],
      ['unsafe number', () => counter.trySet(2 ** 60)],
      ['fraction', () => counter.subtract(0.5)],
      ['string', () => counter.initialize('1' as unknown as number)],
      ['expected', () => counter.compareAndSet(null as unknown as number, 1)],
      ['signal', () => counter.increment({ signal: {} as AbortSignal })],
      ['options', () => counter.get('x' as unknown as object)],
      ['an option it does not have', () => counter.add(1, { timeoutMs: 5 } as never)],
      ['bytes', () => value.trySet('x' as unknown as Uint8Array)],
      [
        'expected bytes',
        () => value.compareAndSet(undefined as unknown as Uint8Array, Buffer.alloc(1)),
      ],
      ['too big', () => value.forceSet(new Uint8Array(1024 * 1024 + 1))],
    ] as const) {
      await assert.rejects(call(), isInvalidArgument, what);
    }
    assert.equal(await client.exists(path), null);
    assert.equal(await client.exists(`${path}-bytes`), null);
  });
});
