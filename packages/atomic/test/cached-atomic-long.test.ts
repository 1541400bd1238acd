// CachedAtomicLong against a real server: ids from blocks of cacheFactor, one add per block,
// concurrent calls sharing one reservation, a failed add, and bad input.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type FrameworkClient,
  isInvalidArgument,
  RetryNTimes,
  RetryOneTime,
} from '@zkrecipes/framework';
import { timing, uniquePath } from '@zkrecipes/testing';
import { serverAndTwoClients, type ServerAndTwoClients } from '@zkrecipes/test-support';
import { CachedAtomicLong, DistributedAtomicLong, isCorruptedValue } from '../src/index.js';

const patient = (): RetryNTimes => new RetryNTimes({ n: 1000, sleepBetweenRetriesMs: 1 });

describe('CachedAtomicLong', () => {
  let setup: ServerAndTwoClients;
  let client: FrameworkClient;
  let other: FrameworkClient;
  before(async () => {
    setup = await serverAndTwoClients();
    ({ client, other } = setup);
  });
  after(() => setup.close());

  it('hands out consecutive ids, reserving a block of cacheFactor with one add each time one runs out', async () => {
    const path = uniquePath('blocks');
    const counter = new DistributedAtomicLong(client, path, patient());
    await counter.forceSet(100);
    const ids = new CachedAtomicLong(counter, 5);
    const seen: string[] = [];
    for (let i = 0; i < 12; i++) {
      const id = await ids.next();
      assert.equal(id.succeeded, true);
      assert.equal(id.postValue, id.preValue + 1n);
      // The call that reserved a block carries the add's stats; the others made no attempt.
      assert.equal(id.stats.optimisticTries, i % 5 === 0 ? 1 : 0, `call ${i}`);
      seen.push(String(id.preValue));
    }
    assert.deepEqual(
      seen,
      Array.from({ length: 12 }, (_, i) => String(100 + i)),
    );
    // Three blocks reserved: 100..104, 105..109, 110..114.
    assert.equal((await counter.get()).postValue, 115n);
  });

  it('calls made while a block is reserved wait for it: 10 at once with cacheFactor 10 make one add', async () => {
    const path = uniquePath('together');
    const counter = new DistributedAtomicLong(client, path, patient());
    const ids = new CachedAtomicLong(counter, 10);
    const results = await Promise.all(Array.from({ length: 10 }, () => ids.next()));
    assert.deepEqual(
      results.map((id) => id.preValue).sort((a, b) => Number(a - b)),
      Array.from({ length: 10 }, (_, i) => BigInt(i)),
    );
    assert.equal(
      results.reduce((sum, id) => sum + id.stats.optimisticTries, 0),
      1,
    );
    assert.equal((await counter.get()).postValue, 10n);
  });

  it('two clients taking blocks of one counter never get the same id', async () => {
    const path = uniquePath('two');
    const caches = [client, other].map(
      (each, i) => new CachedAtomicLong(new DistributedAtomicLong(each, path, patient()), 3 + i),
    );
    const taken = await Promise.all(
      caches.map(async (cache) => {
        const mine: bigint[] = [];
        for (let i = 0; i < 60; i++) mine.push((await cache.next()).preValue);
        return mine;
      }),
    );
    const all = taken.flat();
    assert.equal(new Set(all).size, 120, 'no id handed out twice');
    const total = (await new DistributedAtomicLong(client, path, patient()).get()).postValue;
    // 60 ids in blocks of 3 and 60 in blocks of 4: exactly 20 + 15 blocks were reserved.
    assert.equal(total, 60n + 60n);
  });

  it('an add that gives up answers succeeded: false with 0n and 0n; the next call reserves again', async () => {
    const path = uniquePath('gives-up');
    const counter = new DistributedAtomicLong(
      client,
      path,
      new RetryNTimes({ n: 0, sleepBetweenRetriesMs: 0 }),
    );
    const ids = new CachedAtomicLong(counter, 1);
    // Another client increments as fast as it can: an add with no retry loses some races.
    const racer = new DistributedAtomicLong(other, path, patient());
    let racing = true;
    let racerAdds = 0;
    const race = (async () => {
      while (racing) if ((await racer.increment()).succeeded) racerAdds += 1;
    })();
    let failed = 0;
    let succeeded = 0;
    const deadline = performance.now() + timing.ms(20_000);
    try {
      while (failed < 3 && performance.now() < deadline) {
        const id = await ids.next();
        if (id.succeeded) {
          succeeded += 1;
        } else {
          failed += 1;
          assert.deepEqual([id.preValue, id.postValue], [0n, 0n]);
          assert.equal(id.stats.optimisticTries, 1);
        }
      }
    } finally {
      racing = false;
      await race;
    }
    assert.ok(failed >= 1, 'an add lost a race and gave up');
    // A failed reservation changed nothing: the counter is exactly the successful adds.
    assert.equal((await counter.get()).postValue, BigInt(racerAdds + succeeded));
    console.log(
      `next(): ${succeeded} succeeded, ${failed} failed against ${racerAdds} racing increments`,
    );
  });

  it('a corrupted counter rejects next(); after a repair the next call reserves', async () => {
    const path = uniquePath('corrupt');
    await client.create(path, { data: Buffer.from([1, 2]) });
    const ids = new CachedAtomicLong(new DistributedAtomicLong(client, path, patient()), 4);
    await assert.rejects(ids.next(), isCorruptedValue);
    await client.setData(path, Buffer.alloc(0));
    assert.equal((await ids.next()).preValue, 0n);
  });

  it('bad input is an InvalidArgumentError before anything is sent', async () => {
    const path = uniquePath('misuse');
    const counter = new DistributedAtomicLong(
      client,
      path,
      new RetryOneTime({ sleepBetweenRetryMs: 1 }),
    );
    for (const factor of [0, -1, 1.5, 2 ** 31, Number.NaN, '3']) {
      assert.throws(() => new CachedAtomicLong(counter, factor as number), isInvalidArgument);
    }
    assert.throws(() => new CachedAtomicLong({} as DistributedAtomicLong, 3), isInvalidArgument);
    await assert.rejects(
      new CachedAtomicLong(counter, 3).next({ signal: 'no' } as never),
      isInvalidArgument,
    );
    const aborted = new CachedAtomicLong(counter, 3).next({ signal: AbortSignal.abort('stop') });
    await assert.rejects(aborted, (reason: unknown) => reason === 'stop');
    assert.equal(await client.exists(path), null, 'nothing was written');
  });
});
