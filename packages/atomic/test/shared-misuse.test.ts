// Bad input to SharedValue and SharedCount gets a typed error before anything is sent.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type FrameworkClient,
  isClosed,
  isIllegalState,
  isInvalidArgument,
} from '@zkrecipes/framework';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { connect } from '@zkrecipes/test-support';
import { isCorruptedValue, SharedCount, SharedValue } from '../src/index.js';

describe('SharedValue and SharedCount misuse', () => {
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

  it('constructors refuse a bad client, path or seed', () => {
    const bad: [string, () => unknown][] = [
      ['client', () => new SharedCount({} as FrameworkClient, '/a', 0)],
      ['relative path', () => new SharedCount(client, 'a', 0)],
      ['trailing slash', () => new SharedValue(client, '/a/', Buffer.alloc(0))],
      ['fraction', () => new SharedCount(client, '/a', 1.5)],
      ['over int', () => new SharedCount(client, '/a', 2 ** 31)],
      ['under int', () => new SharedCount(client, '/a', -(2 ** 31) - 1)],
      ['NaN', () => new SharedCount(client, '/a', Number.NaN)],
      ['string seed', () => new SharedCount(client, '/a', '1' as unknown as number)],
      ['string bytes', () => new SharedValue(client, '/a', 'x' as unknown as Uint8Array)],
      ['no bytes', () => new SharedValue(client, '/a', undefined as unknown as Uint8Array)],
      ['over 1 MB', () => new SharedValue(client, '/a', new Uint8Array(1024 * 1024 + 1))],
    ];
    for (const [what, make] of bad) assert.throws(make, isInvalidArgument, what);
  });

  it('calls before start() are IllegalStateError, after close() ClosedError; bad arguments are InvalidArgumentError', async () => {
    const path = uniquePath('misuse');
    const count = new SharedCount(client, path, 0);
    await assert.rejects(count.setCount(1), isIllegalState);
    await assert.rejects(count.trySetCount(count.getVersionedValue(), 1), isIllegalState);
    await count.start();
    await assert.rejects(count.start(), isIllegalState);
    const seen = count.getVersionedValue();
    for (const [what, call] of [
      ['count 2^31', () => count.setCount(2 ** 31)],
      ['count string', () => count.setCount('1' as unknown as number)],
      ['previous null', () => count.trySetCount(null as unknown as typeof seen, 1)],
      [
        'previous zxid number',
        () => count.trySetCount({ ...seen, zxid: 1 as unknown as bigint }, 1),
      ],
      ['previous value', () => count.trySetCount({ ...seen, value: 0.5 }, 1)],
      ['signal', () => count.setCount(1, { signal: 'x' as unknown as AbortSignal })],
      ['options', () => count.setCount(1, 7 as unknown as object)],
    ] as const) {
      await assert.rejects(call(), isInvalidArgument, what);
    }
    assert.throws(() => count.on('changed' as 'countChanged', () => undefined), isInvalidArgument);
    assert.throws(() => count.on('countChanged', 1 as unknown as () => void), isInvalidArgument);
    // Nothing of the above was written.
    assert.equal((await client.getData(path)).stat.version, 0);
    await count.close();
    await count.close();
    await assert.rejects(count.setCount(1), isClosed);
    await assert.rejects(count.start(), isIllegalState);
  });

  it('a node that does not hold a 4-byte int is a CorruptedValueError from getCount, reported for listeners', async () => {
    const path = uniquePath('corrupt');
    await client.create(path, { data: Buffer.from([1, 2]) });
    await using count = new SharedCount(client, path, 0);
    await count.start();
    assert.throws(
      () => count.getCount(),
      (error: unknown) => isCorruptedValue(error) && error.code === 'CORRUPTED_VALUE',
    );
    assert.throws(() => count.getVersionedValue(), isCorruptedValue);
    const heard: number[] = [];
    const reported: unknown[] = [];
    count.on('countChanged', (value) => heard.push(value));
    count.errors.subscribe(({ error }) => reported.push(error));
    await client.setData(path, Buffer.from([3]));
    await waitFor(() => reported.length === 1, { message: 'the listener failure reported' });
    assert.ok(isCorruptedValue(reported[0]), String(reported[0]));
    await client.setData(path, Buffer.from([0, 0, 0, 9]));
    await waitFor(() => heard.includes(9), { message: 'a readable value heard' });
    assert.equal(count.getCount(), 9);
  });
});
