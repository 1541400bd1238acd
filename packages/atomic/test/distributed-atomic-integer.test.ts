// DistributedAtomicInteger against a real server: Curator's TestDistributedAtomicInteger-style
// basics, the 4 bytes on the node, Java int wrap-around, corrupted nodes and bad input.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type FrameworkClient,
  isInvalidArgument,
  RetryNTimes,
  RetryOneTime,
} from '@zkrecipes/framework';
import { TestingServer, uniquePath } from '@zkrecipes/testing';
import { connect } from '@zkrecipes/test-support';
import { type AtomicValue, DistributedAtomicInteger, isCorruptedValue } from '../src/index.js';

const once = (): RetryOneTime => new RetryOneTime({ sleepBetweenRetryMs: 1 });
const show = (result: AtomicValue<number>): string =>
  `${result.succeeded} ${result.preValue} ${result.postValue}`;

describe('DistributedAtomicInteger', () => {
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

  it('increment, decrement, add and subtract report pre and post values; the node holds 4 big-endian bytes', async () => {
    const path = `${uniquePath('basic')}/counter`;
    const counter = new DistributedAtomicInteger(client, path, once());
    assert.equal(show(await counter.get()), 'true 0 0');
    assert.equal(show(await counter.increment()), 'true 0 1');
    assert.equal(show(await counter.decrement()), 'true 1 0');
    assert.equal(show(await counter.add(10)), 'true 0 10');
    const result = await counter.subtract(15);
    assert.equal(show(result), 'true 10 -5');
    assert.equal(result.stats.optimisticTries, 1);
    assert.equal(typeof result.postValue, 'number');
    assert.equal(Buffer.from((await client.getData(path)).data).toString('hex'), 'fffffffb');
    assert.equal(show(await counter.trySet(7)), 'true -5 7');
    assert.equal(show(await counter.compareAndSet(7, 8)), 'true 7 8');
    // A failed compareAndSet reports the value found and post = 0, as Curator's.
    assert.equal(show(await counter.compareAndSet(7, 9)), 'false 8 0');
    await counter.forceSet(-1);
    assert.equal(show(await counter.get()), 'true -1 -1');
    assert.equal(await counter.initialize(3), false);
  });

  it('compareAndSet never creates a missing node, even expecting 0; initialize does', async () => {
    const path = uniquePath('fresh');
    const counter = new DistributedAtomicInteger(client, path, once());
    assert.equal(show(await counter.compareAndSet(0, 1)), 'false 0 0');
    assert.equal(await client.exists(path), null);
    assert.equal(await counter.initialize(0), true);
    assert.equal(show(await counter.compareAndSet(0, 1)), 'true 0 1');
  });

  it('wraps around at 32 bits as Java int arithmetic does', async () => {
    const path = uniquePath('wrap');
    const counter = new DistributedAtomicInteger(client, path, once());
    await counter.forceSet(2_147_483_647);
    assert.equal(show(await counter.increment()), 'true 2147483647 -2147483648');
    assert.equal(show(await counter.decrement()), 'true -2147483648 2147483647');
    // -1 * MIN_VALUE is MIN_VALUE in Java: subtracting it adds it.
    await counter.forceSet(0);
    assert.equal(show(await counter.subtract(-2_147_483_648)), 'true 0 -2147483648');
    assert.equal(Buffer.from((await client.getData(path)).data).toString('hex'), '80000000');
  });

  it('1 to 3 bytes are a CorruptedValueError; empty reads 0; bytes after the first 4 are ignored', async () => {
    const path = uniquePath('corrupt');
    const counter = new DistributedAtomicInteger(client, path, once());
    await client.create(path, { data: Buffer.from([1, 2, 3]) });
    await assert.rejects(counter.get(), isCorruptedValue);
    await assert.rejects(counter.increment(), isCorruptedValue);
    assert.deepEqual([...(await client.getData(path)).data], [1, 2, 3], 'nothing written');
    await client.setData(path, Buffer.alloc(0));
    assert.equal(show(await counter.get()), 'true 0 0');
    await client.setData(path, Buffer.from([0, 0, 0, 9, 0xff, 0xff]));
    assert.equal(show(await counter.increment()), 'true 9 10');
  });

  it('increments from three clients at once lose nothing', async () => {
    const path = uniquePath('race');
    const clients = await Promise.all([0, 1].map(() => connect(server.connectString)));
    try {
      const counters = [client, ...clients].map(
        (each) =>
          new DistributedAtomicInteger(
            each,
            path,
            new RetryNTimes({ n: 1000, sleepBetweenRetriesMs: 1 }),
          ),
      );
      const results = await Promise.all(
        counters.map(async (counter) => {
          const posts: number[] = [];
          for (let i = 0; i < 40; i++) posts.push((await counter.increment()).postValue);
          return posts;
        }),
      );
      const all = results.flat().sort((a, b) => a - b);
      assert.deepEqual(
        all,
        Array.from({ length: 120 }, (_, i) => i + 1),
      );
      assert.equal((await counters[0]!.get()).postValue, 120);
    } finally {
      await Promise.all(clients.map((each) => each.close()));
    }
  });

  it('refuses what is not a Java int before anything is sent', async () => {
    const path = uniquePath('misuse');
    const counter = new DistributedAtomicInteger(client, path, once());
    const bad: unknown[] = [1.5, 2 ** 31, -(2 ** 31) - 1, 1n, '1', Number.NaN];
    for (const value of bad) {
      await assert.rejects(counter.add(value as number), isInvalidArgument, String(value));
      await assert.rejects(counter.forceSet(value as number), isInvalidArgument);
      await assert.rejects(counter.compareAndSet(0, value as number), isInvalidArgument);
    }
    await assert.rejects(counter.increment({ signal: 1 } as never), isInvalidArgument);
    assert.throws(
      () => new DistributedAtomicInteger(client, path, once(), { promoted: {} } as never),
      (error: Error) => isInvalidArgument(error) && /DistributedAtomicInteger/.test(error.message),
    );
    assert.throws(
      () => new DistributedAtomicInteger(client, 'relative', once()),
      isInvalidArgument,
    );
    assert.equal(await client.exists(path), null, 'nothing was written');
  });
});
