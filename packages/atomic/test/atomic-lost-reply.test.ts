// The reply of the counter's write is lost (applied by the server, the reply dropped, the link
// reset; the session lives on): every call must answer about its own write, 20 trials each.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FrameworkClient, RetryNTimes } from '@zkrecipes/framework';
import { FaultProxy, TestingServer, uniquePath } from '@zkrecipes/testing';
import { connect } from '@zkrecipes/test-support';
import {
  CachedAtomicLong,
  DistributedAtomicInteger,
  DistributedAtomicLong,
  SharedCount,
} from '../src/index.js';

const TRIALS = 20;

describe('atomic values when the reply of their write is lost', () => {
  let server: TestingServer;
  let proxy: FaultProxy;
  let client: FrameworkClient;
  let observer: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    proxy = await FaultProxy.start({ targetPort: server.port });
    client = await connect(proxy.connectString, {
      sessionTimeoutMs: 10_000,
      retryPolicy: new RetryNTimes({ n: 10, sleepBetweenRetriesMs: 20 }),
    });
    observer = await connect(server.connectString);
  });
  after(async () => {
    await client.close();
    await observer.close();
    await proxy.close();
    await server.close();
  });

  /** The next write on `path` (a witness's multi carries it) has its reply lost. */
  function loseNextWrite(path: string): Promise<unknown> {
    return proxy.loseReply({ ops: ['multi'], pathPrefix: path });
  }

  it('SharedCount.trySetCount answers true exactly when its write landed', async () => {
    const path = uniquePath('count');
    await using count = new SharedCount(client, path, 10);
    await count.start();
    for (let i = 0; i < TRIALS; i++) {
      const seen = count.getVersionedValue();
      const lost = loseNextWrite(path);
      const answer = await count.trySetCount(seen, seen.value + 1);
      await lost;
      const held = (await observer.getData(path)).data.readInt32BE(0);
      assert.equal(held, seen.value + 1, `trial ${i}: the node`);
      assert.equal(answer, true, `trial ${i}: the node holds ${held}, the call said ${answer}`);
    }
  });

  it('SharedCount.trySetCount that lost a race answers false, reply lost or not', async () => {
    const path = uniquePath('count-race');
    await using count = new SharedCount(client, path, 1);
    await count.start();
    for (let i = 0; i < 5; i++) {
      const seen = count.getVersionedValue();
      // Another writer moves the node first; the cache still holds the old version.
      const { stat } = await observer.getData(path);
      const other = Buffer.alloc(4);
      other.writeInt32BE(seen.value + 100);
      await observer.setData(path, other, { version: stat.version });
      const lost = loseNextWrite(path);
      assert.equal(await count.trySetCount(seen, seen.value + 1), false, `trial ${i}`);
      await lost;
      await count.trySetCount(count.getVersionedValue(), count.getCount());
    }
  });

  it('DistributedAtomicLong.compareAndSet succeeds exactly when its write landed', async () => {
    const path = uniquePath('cas');
    const counter = new DistributedAtomicLong(
      client,
      path,
      new RetryNTimes({ n: 0, sleepBetweenRetriesMs: 0 }),
    );
    await counter.forceSet(200n);
    for (let i = 0; i < TRIALS; i++) {
      const from = 200n + BigInt(i);
      const lost = loseNextWrite(path);
      const result = await counter.compareAndSet(from, from + 1n);
      await lost;
      assert.equal((await counter.get()).postValue, from + 1n, `trial ${i}: the node`);
      assert.equal(result.succeeded, true, `trial ${i}`);
      assert.equal(result.postValue, from + 1n);
    }
  });

  it('DistributedAtomicLong.increment moves the counter by exactly one', async () => {
    const path = uniquePath('inc');
    const counter = new DistributedAtomicLong(
      client,
      path,
      new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 1 }),
    );
    await counter.forceSet(100n);
    for (let i = 0; i < TRIALS; i++) {
      const lost = loseNextWrite(path);
      const result = await counter.increment();
      await lost;
      assert.equal(result.succeeded, true);
      assert.equal(result.preValue, 100n + BigInt(i), `trial ${i}: pre`);
      assert.equal(result.postValue, 101n + BigInt(i), `trial ${i}: post`);
      assert.equal((await counter.get()).postValue, 101n + BigInt(i), `trial ${i}: the node`);
    }
  });

  it('DistributedAtomicInteger.increment moves the counter by exactly one', async () => {
    const path = uniquePath('int-inc');
    const counter = new DistributedAtomicInteger(
      client,
      path,
      new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 1 }),
    );
    await counter.forceSet(100);
    for (let i = 0; i < TRIALS; i++) {
      const lost = loseNextWrite(path);
      const result = await counter.increment();
      await lost;
      assert.equal(result.succeeded, true);
      assert.deepEqual([result.preValue, result.postValue], [100 + i, 101 + i], `trial ${i}`);
      assert.equal((await observer.getData(path)).data.readInt32BE(0), 101 + i, `trial ${i}: node`);
    }
  });

  it('CachedAtomicLong reserves each block exactly once: the ids run on without a gap or a repeat', async () => {
    const path = uniquePath('cached');
    const counter = new DistributedAtomicLong(
      client,
      path,
      new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 1 }),
    );
    await counter.forceSet(0n);
    const ids = new CachedAtomicLong(counter, 3);
    for (let i = 0; i < TRIALS; i++) {
      // Every block's add has its reply lost (the first of each 3 calls reserves).
      const lost = i % 3 === 0 ? loseNextWrite(path) : undefined;
      const id = await ids.next();
      await lost;
      assert.equal(id.succeeded, true);
      assert.equal(id.preValue, BigInt(i), `call ${i}`);
      const reserved = BigInt(Math.floor(i / 3) + 1) * 3n;
      assert.equal(
        (await observer.getData(path)).data.readBigInt64BE(0),
        reserved,
        `call ${i}: node`,
      );
    }
  });

  it('DistributedAtomicLong.initialize answers true when its create landed', async () => {
    for (let i = 0; i < 5; i++) {
      const path = uniquePath('init');
      const counter = new DistributedAtomicLong(
        client,
        path,
        new RetryNTimes({ n: 0, sleepBetweenRetriesMs: 0 }),
      );
      const lost = loseNextWrite(path);
      assert.equal(await counter.initialize(7n), true, `trial ${i}`);
      await lost;
      assert.equal((await counter.get()).postValue, 7n);
    }
  });
});
