// Reentrancy is per flow (runInFlow / withLock scopes): one flow re-acquires and is counted;
// concurrent flows sharing a lock object exclude each other.
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { TestingServer, uniquePath } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import { IllegalMonitorStateError, InterProcessMutex, runInFlow } from '../src/index.js';
import { OverlapWitness, tracingClient } from './helpers.js';

describe('InterProcessMutex reentrancy', () => {
  let server: TestingServer;
  let a: FrameworkClient;
  let b: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    a = await connectedClient(server);
    b = await connectedClient(server);
  });
  after(async () => {
    await closeAll([a, b]);
    await server.close();
  });

  it('one flow re-acquires: counted, and released only after the matching number of releases', async () => {
    const path = uniquePath('reentrant');
    const traced = tracingClient(a);
    const mutex = new InterProcessMutex(traced.client, path);
    const other = new InterProcessMutex(b, path);
    await runInFlow(async () => {
      await mutex.acquire();
      const token = mutex.hold!.fencingToken;
      traced.reset();
      assert.equal(await mutex.acquire(0), true, 'a reentrant acquire(0) succeeds');
      assert.equal(await mutex.acquire(), true);
      assert.deepEqual(traced.calls, [], 'no round trip to re-enter');
      assert.equal(mutex.hold!.fencingToken, token, 'one hold, one token');
      assert.equal((await a.getChildren(path)).length, 1, 'one node for the whole flow');

      await mutex.release();
      await mutex.release();
      assert.equal(await other.acquire(0), false, 'still held after 2 of 3 releases');
      assert.equal(mutex.isOwnedByCurrentFlow(), true);
      await mutex.release();
      assert.equal(mutex.isOwnedByCurrentFlow(), false);
      assert.equal(await other.acquire(0), true, 'free after the third release');
      await other.release();
    });
  });

  it('a helper that locks again inside a flow, or a nested withLock, re-enters instead of waiting for itself', async () => {
    const path = uniquePath('nested');
    const mutex = new InterProcessMutex(a, path);
    const helper = async (): Promise<string> => {
      await mutex.acquire();
      try {
        return mutex.hold!.lockPath;
      } finally {
        await mutex.release();
      }
    };
    const seen = await mutex.withLock(async (hold) => {
      const inner = await helper();
      const nested = await mutex.withLock((again) => again.lockPath);
      // Work the holder starts belongs to its flow: parallel helpers re-enter too.
      const parallel = await Promise.all([helper(), helper(), mutex.withLock((h) => h.lockPath)]);
      return [hold.lockPath, inner, nested, ...parallel];
    });
    assert.equal(new Set(seen).size, 1, 'every level saw the same hold');
    assert.equal(mutex.isAcquiredInThisProcess(), false);
    assert.deepEqual(await a.getChildren(path), []);
  });

  it('concurrent flows sharing one lock object exclude each other (plain acquire, withLock, runInFlow)', async () => {
    const path = uniquePath('flows');
    const mutex = new InterProcessMutex(a, path);
    const witness = new OverlapWitness();
    const critical = async (who: string): Promise<void> => {
      witness.enter(who, mutex.hold?.fencingToken);
      await nextTurn(); // let the others run while we hold it
      witness.exit();
    };
    const cycles = 5;
    const plain = async (who: string, awaitFirst: boolean): Promise<void> => {
      for (let i = 0; i < cycles; i++) {
        if (awaitFirst) await nextTurn();
        await mutex.acquire();
        try {
          await critical(who);
        } finally {
          await mutex.release();
        }
      }
    };
    const scoped = (who: string): Promise<void> =>
      runInFlow(async () => {
        for (let i = 0; i < cycles; i++) {
          await mutex.acquire();
          await mutex.acquire(); // re-entered within the flow, not shared with the others
          try {
            await critical(who);
          } finally {
            await mutex.release();
            await mutex.release();
          }
        }
      });
    const viaWithLock = async (who: string): Promise<void> => {
      for (let i = 0; i < cycles; i++) await mutex.withLock(() => critical(who));
    };
    await Promise.all([
      plain('plain-1', false),
      plain('plain-2', true),
      plain('plain-3', false),
      scoped('scoped-1'),
      scoped('scoped-2'),
      viaWithLock('with-1'),
      viaWithLock('with-2'),
    ]);
    assert.deepEqual(witness.violations, []);
    assert.equal(witness.maxHolders, 1);
    assert.equal(witness.handoffs, 7 * cycles);
    assert.deepEqual(await a.getChildren(path), []);
  });

  it('outside any flow, acquiring again is another contender: it waits (here: times out)', async () => {
    const path = uniquePath('unscoped');
    const mutex = new InterProcessMutex(a, path);
    await mutex.acquire();
    assert.equal(await mutex.acquire(100), false);
    assert.equal(mutex.isOwnedByCurrentFlow(), false, 'an unscoped hold belongs to no flow');
    assert.equal(mutex.isAcquiredInThisProcess(), true);
    await mutex.release(); // any caller outside a holding flow may release it
    assert.deepEqual(await a.getChildren(path), []);
  });

  it('a flow cannot release a hold of another flow', async () => {
    const path = uniquePath('other-flow');
    const mutex = new InterProcessMutex(a, path);
    let releaseHolder!: () => void;
    const holderMayRelease = new Promise<void>((resolve) => (releaseHolder = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const holder = mutex.withLock(async () => {
      held();
      await holderMayRelease;
    });
    await holding;
    await runInFlow(async () => {
      await assert.rejects(mutex.release(), IllegalMonitorStateError);
    });
    await assert.rejects(mutex.release(), IllegalMonitorStateError);
    releaseHolder();
    await holder;
    assert.equal(mutex.isAcquiredInThisProcess(), false);
  });

  it('concurrent acquires inside one flow join into one counted hold', async () => {
    const path = uniquePath('join');
    const mutex = new InterProcessMutex(a, path);
    await runInFlow(async () => {
      assert.deepEqual(await Promise.all([mutex.acquire(), mutex.acquire(), mutex.acquire(1000)]), [
        true,
        true,
        true,
      ]);
      assert.equal((await a.getChildren(path)).length, 1);
      await mutex.release();
      await mutex.release();
      assert.equal((await a.getChildren(path)).length, 1);
      await mutex.release();
      assert.deepEqual(await a.getChildren(path), []);
    });
  });
});
