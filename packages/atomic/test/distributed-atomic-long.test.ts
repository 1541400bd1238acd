// Curator's TestDistributedAtomicLong scenarios (testBasic, testCompareAndSetWithFreshInstance,
// testCompareAndSet, testCorruptedValue, testForceSet, testSimulation) against a real server,
// plus the byte format and DistributedAtomicValue.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ExponentialBackoffRetry,
  type FrameworkClient,
  RetryNTimes,
  RetryOneTime,
} from '@zkrecipes/framework';
import { TestingServer, uniquePath } from '@zkrecipes/testing';
import { connect } from '@zkrecipes/test-support';
import { DistributedAtomicLong, DistributedAtomicValue, isCorruptedValue } from '../src/index.js';

const once = (): RetryOneTime => new RetryOneTime({ sleepBetweenRetryMs: 1 });

describe('DistributedAtomicLong', () => {
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

  it('increment, decrement, add and subtract report pre and post values and one optimistic try each (testBasic)', async () => {
    const path = `${uniquePath('basic')}/bar/counter`;
    const counter = new DistributedAtomicLong(client, path, once());
    const expected: [
      () => Promise<{
        succeeded: boolean;
        preValue: bigint;
        postValue: bigint;
        stats: { optimisticTries: number; promotedLockTries: number };
      }>,
      bigint,
      bigint,
    ][] = [
      [() => counter.increment(), 0n, 1n],
      [() => counter.decrement(), 1n, 0n],
      [() => counter.add(10), 0n, 10n],
      [() => counter.subtract(5n), 10n, 5n],
    ];
    for (const [call, pre, post] of expected) {
      const result = await call();
      assert.equal(result.succeeded, true);
      assert.equal(result.stats.optimisticTries, 1);
      assert.equal(result.stats.promotedLockTries, 0);
      assert.equal(result.preValue, pre);
      assert.equal(result.postValue, post);
    }
    // 8 bytes, big-endian, as Java's ByteBuffer.putLong writes them.
    assert.equal(
      Buffer.from((await client.getData(path)).data).toString('hex'),
      '0000000000000005',
    );
    await counter.forceSet(-2n);
    assert.equal(
      Buffer.from((await client.getData(path)).data).toString('hex'),
      'fffffffffffffffe',
    );
    await counter.forceSet(2n ** 63n - 1n);
    const wrapped = await counter.increment();
    assert.equal(wrapped.postValue, -(2n ** 63n), 'wraps around as a Java long does');
  });

  it('compareAndSet never creates a missing node, even expecting 0; after initialize it works (testCompareAndSetWithFreshInstance)', async () => {
    const path = uniquePath('fresh');
    const counter = new DistributedAtomicLong(client, path, once());
    const missing = await counter.compareAndSet(0, 1);
    assert.deepEqual([missing.succeeded, missing.preValue, missing.postValue], [false, 0n, 0n]);
    assert.equal(await client.exists(path), null);
    assert.equal(await counter.initialize(0), true);
    const result = await counter.compareAndSet(0, 1);
    assert.deepEqual([result.succeeded, result.preValue, result.postValue], [true, 0n, 1n]);
    assert.equal(await counter.initialize(0), false);
    assert.equal((await counter.get()).preValue, 1n);
  });

  it('a failed compareAndSet reports the value found and post = 0 (testCompareAndSet)', async () => {
    const path = uniquePath('cas');
    const counter = new DistributedAtomicLong(client, path, once());
    await counter.forceSet(1);
    assert.equal((await counter.compareAndSet(1, 5)).succeeded, true);
    const again = await counter.compareAndSet(1, 5);
    assert.deepEqual([again.succeeded, again.preValue, again.postValue], [false, 5n, 0n]);
    // Another writer increments between our read and our compare: ours fails, nothing lost.
    await new DistributedAtomicLong(client, path, once()).increment();
    const raced = await counter.compareAndSet(5, 10);
    assert.deepEqual([raced.succeeded, raced.preValue, raced.postValue], [false, 6n, 0n]);
    assert.equal((await counter.get()).preValue, 6n);
  });

  it('compare-and-set increments from three clients at once lose nothing (versioned writes race for real)', async () => {
    const path = uniquePath('cas-race');
    const clients = await Promise.all([0, 1, 2].map(() => connect(server.connectString)));
    try {
      await new DistributedAtomicLong(client, path, once()).initialize(0);
      let lost = 0;
      await Promise.all(
        clients.map(async (each) => {
          const counter = new DistributedAtomicLong(each, path, once());
          for (let i = 0; i < 40; i++) {
            for (;;) {
              const { preValue } = await counter.get();
              if ((await counter.compareAndSet(preValue, preValue + 1n)).succeeded) break;
              lost += 1;
            }
          }
        }),
      );
      assert.equal((await new DistributedAtomicLong(client, path, once()).get()).preValue, 120n);
      assert.ok(lost > 0, 'some compare-and-sets lost a race');
    } finally {
      await Promise.all(clients.map((each) => each.close()));
    }
  });

  it('a node holding 1 to 7 bytes is a CorruptedValueError; empty reads 0, 8+ bytes read the first 8 (testCorruptedValue)', async () => {
    const path = uniquePath('corrupt');
    await client.create(path, { data: Buffer.from('foo') });
    const counter = new DistributedAtomicLong(client, path, once());
    await assert.rejects(counter.get(), isCorruptedValue);
    await assert.rejects(counter.increment(), isCorruptedValue);
    assert.equal(Buffer.from((await client.getData(path)).data).toString(), 'foo');
    await client.setData(path, Buffer.alloc(0));
    assert.equal((await counter.get()).preValue, 0n);
    await client.setData(path, Buffer.from('000000000000000701', 'hex'));
    assert.equal((await counter.get()).preValue, 7n);
  });

  it('forceSet overrides concurrent increments (testForceSet)', async () => {
    const path = uniquePath('force');
    const counter = new DistributedAtomicLong(client, path, once());
    const other = await connect(server.connectString);
    try {
      const incrementer = new DistributedAtomicLong(other, path, once());
      let increments = 0;
      await Promise.all([
        (async () => {
          for (let i = 0; i < 100; i++) {
            if ((await incrementer.increment()).succeeded) increments += 1;
          }
        })(),
        (async () => {
          for (let i = 0; i < 100; i++) await counter.forceSet(0);
        })(),
      ]);
      await counter.forceSet(0);
      assert.equal((await counter.get()).preValue, 0n);
      assert.ok(increments > 0);
    } finally {
      await other.close();
    }
  });

  it('8 clients x 25 increments with promotion to a mutex: strictly increasing per client, no update lost, both modes used (testSimulation)', async () => {
    const path = uniquePath('simulation');
    const lockPath = `${path}-lock`;
    const clients = await Promise.all(
      Array.from({ length: 8 }, () => connect(server.connectString)),
    );
    const totals = { optimistic: 0, promoted: 0, failures: 0, errors: 0, succeeded: 0 };
    try {
      await Promise.all(
        clients.map(async (each) => {
          const policy = new ExponentialBackoffRetry({ baseSleepMs: 3, maxRetries: 3 });
          const counter = new DistributedAtomicLong(each, path, policy, {
            promotedToLock: { lockPath, retryPolicy: policy },
          });
          let previous = -1n;
          for (let i = 0; i < 25; i++) {
            const value = await counter.increment();
            if (value.succeeded) {
              totals.succeeded += 1;
              if (value.postValue <= previous) totals.errors += 1;
              previous = value.postValue;
            } else {
              totals.failures += 1;
            }
            totals.optimistic += value.stats.optimisticTries;
            totals.promoted += value.stats.promotedLockTries;
          }
        }),
      );
      const final = (await new DistributedAtomicLong(client, path, once()).get()).preValue;
      assert.equal(totals.errors, 0);
      assert.equal(final, BigInt(totals.succeeded), JSON.stringify(totals));
      assert.ok(totals.optimistic > 0 && totals.promoted > 0, JSON.stringify(totals));
      // The lock left no node behind.
      assert.deepEqual(await client.getChildren(lockPath), []);
    } finally {
      await Promise.all(clients.map((each) => each.close()));
    }
  });

  it('DistributedAtomicValue: bytes as they are; undefined for no node; trySet creates it', async () => {
    const path = uniquePath('value');
    const value = new DistributedAtomicValue(
      client,
      path,
      new RetryNTimes({ n: 3, sleepBetweenRetriesMs: 1 }),
    );
    const empty = await value.get();
    assert.deepEqual(
      [empty.succeeded, empty.preValue, empty.postValue],
      [true, undefined, undefined],
    );
    const failed = await value.compareAndSet(Buffer.alloc(0), Buffer.from('x'));
    assert.deepEqual([failed.succeeded, failed.postValue], [false, undefined]);
    const created = await value.trySet(Buffer.from('first'));
    assert.equal(created.succeeded, true);
    assert.equal(created.preValue, undefined);
    assert.equal(Buffer.from(created.postValue!).toString(), 'first');
    const swapped = await value.compareAndSet(Buffer.from('first'), Buffer.from('second'));
    assert.equal(swapped.succeeded, true);
    assert.equal(Buffer.from(swapped.preValue!).toString(), 'first');
    assert.equal(Buffer.from((await client.getData(path)).data).toString(), 'second');
    assert.equal(await value.initialize(Buffer.from('third')), false);
  });
});
