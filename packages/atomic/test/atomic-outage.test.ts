// DistributedAtomicLong when things go wrong: the server stopped (every call with a signal
// settles on time, a client close ends the rest at once) and a promoted mutex that is taken.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FrameworkClient, isClosed, RetryNTimes } from '@zkrecipes/framework';
import { InterProcessMutex } from '@zkrecipes/locks';
import { TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { connect, timed } from '@zkrecipes/test-support';
import { DistributedAtomicLong, SharedCount } from '../src/index.js';

const noRetry = (): RetryNTimes => new RetryNTimes({ n: 0, sleepBetweenRetriesMs: 0 });

describe('DistributedAtomicLong under faults', () => {
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

  it('a promoted mutex held elsewhere: lost optimistic tries fail after maxLockTimeMs, nothing is lost', async () => {
    const path = uniquePath('held-lock');
    const lockPath = `${path}-lock`;
    const holder = new InterProcessMutex(client, lockPath);
    assert.equal(await holder.acquire(0), true);
    const clients = await Promise.all([0, 1, 2, 3].map(() => connect(server.connectString)));
    const failures: { promotedLockTries: number; promotedTimeMs: number }[] = [];
    let succeeded = 0;
    try {
      await Promise.all(
        clients.map(async (each) => {
          const counter = new DistributedAtomicLong(each, path, noRetry(), {
            promotedToLock: { lockPath, maxLockTimeMs: 200 },
          });
          for (let i = 0; i < 20; i++) {
            const result = await counter.increment();
            if (result.succeeded) succeeded += 1;
            else failures.push(result.stats);
          }
        }),
      );
      const final = await new DistributedAtomicLong(client, path, noRetry()).get();
      assert.equal(final.preValue, BigInt(succeeded));
      assert.ok(failures.length > 0, 'some single optimistic tries lost a race');
      for (const stats of failures) {
        assert.equal(stats.promotedLockTries, 0);
        assert.ok(stats.promotedTimeMs >= 190, `gave up after ${stats.promotedTimeMs} ms`);
      }
    } finally {
      await holder.release();
      await Promise.all(clients.map((each) => each.close()));
    }
    // The waiters left no lock node behind.
    await waitFor(async () => (await client.getChildren(lockPath)).length === 0);
  });

  it('server paused (hung, connection still open): calls with a signal settle on time, and work again after', async () => {
    const path = uniquePath('paused');
    const counter = new DistributedAtomicLong(client, path, noRetry(), {
      promotedToLock: { lockPath: `${path}-lock` },
    });
    await counter.initialize(1);
    await using count = new SharedCount(client, `${path}-count`, 1);
    await count.start();
    await server.pause();
    try {
      const limitMs = timing.ms(300);
      for (const call of [
        () => counter.increment({ signal: AbortSignal.timeout(limitMs) }),
        () => counter.get({ signal: AbortSignal.timeout(limitMs) }),
        () => count.setCount(2, { signal: AbortSignal.timeout(limitMs) }),
        () =>
          count.trySetCount(count.getVersionedValue(), 2, { signal: AbortSignal.timeout(limitMs) }),
      ]) {
        const result = await timed(call);
        assert.equal(
          (result.error as Error | undefined)?.name,
          'TimeoutError',
          String(result.error),
        );
        assert.ok(result.ms < limitMs + timing.ms(500), `settled after ${result.ms.toFixed(0)} ms`);
      }
    } finally {
      server.resume();
    }
    // An increment cut off in flight may still have taken effect; the counter stays consistent.
    const before = (await counter.get()).preValue;
    const after = await counter.increment();
    assert.equal(after.succeeded, true);
    assert.equal(after.postValue, before + 1n);
    await count.setCount(5);
    assert.equal(count.getCount(), 5);
  });

  it('server stopped: every call with a signal settles on time; a client close ends the others at once', async () => {
    const path = uniquePath('stopped');
    const other = await connect(server.connectString, { sessionTimeoutMs: 30_000 });
    const counter = new DistributedAtomicLong(other, path, noRetry(), {
      promotedToLock: { lockPath: `${path}-lock` },
    });
    await counter.initialize(5);
    await server.stop();
    try {
      await waitFor(() => !other.isConnected, { message: 'SUSPENDED' });
      const limitMs = timing.ms(300);
      const calls = [
        () => counter.get({ signal: AbortSignal.timeout(limitMs) }),
        () => counter.increment({ signal: AbortSignal.timeout(limitMs) }),
        () => counter.compareAndSet(5, 6, { signal: AbortSignal.timeout(limitMs) }),
        () => counter.trySet(7, { signal: AbortSignal.timeout(limitMs) }),
        () => counter.forceSet(8, { signal: AbortSignal.timeout(limitMs) }),
        () => counter.initialize(9, { signal: AbortSignal.timeout(limitMs) }),
      ];
      for (const call of calls) {
        const result = await timed(call);
        assert.equal(
          (result.error as Error | undefined)?.name,
          'TimeoutError',
          String(result.error),
        );
        assert.ok(result.ms < limitMs + timing.ms(500), `settled after ${result.ms.toFixed(0)} ms`);
      }
      // Without a signal they wait for the connection; closing the client ends them.
      const pending = [timed(() => counter.increment()), timed(() => counter.get())];
      const closed = await timed(() => other.close());
      assert.ok(closed.ms < timing.ms(2000), `client close took ${closed.ms.toFixed(0)} ms`);
      for (const result of await Promise.all(pending)) {
        assert.ok(isClosed(result.error), String(result.error));
        assert.ok(result.ms < timing.ms(2000), `settled after ${result.ms.toFixed(0)} ms`);
      }
    } finally {
      await other.close();
      await server.restart();
      await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) });
    }
    assert.equal(Buffer.from((await client.getData(path)).data).readBigInt64BE(0), 5n);
  });
});
