// Acquires that take several grants (the semaphore's acquire(qty), InterProcessMultiLock)
// resolve only while every one of them is valid: one that went unproven while the later ones
// were waited for (a short partition: SUSPENDED, same session) is not handed out; all are
// given back and taken again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { filter, firstValueFrom } from 'rxjs';
import { joinPath, type ConnectionState, type FrameworkClient } from '@zkrecipes/framework';
import { FaultProxy, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import { InterProcessMultiLock, InterProcessMutex, InterProcessSemaphoreV2 } from '../src/index.js';

function nextState(client: FrameworkClient, wanted: ConnectionState): Promise<ConnectionState> {
  return firstValueFrom(client.connectionStates.pipe(filter((state) => state === wanted)));
}

describe('Acquires of several grants', () => {
  let server: TestingServer;
  let proxy: FaultProxy;
  let waiter: FrameworkClient;
  let other: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    proxy = await FaultProxy.start({ targetPort: server.port });
    waiter = await connectedClient(server, {
      connectString: proxy.connectString,
      sessionTimeoutMs: 4000,
    });
    other = await connectedClient(server);
  });
  after(async () => {
    await closeAll([waiter, other]);
    await proxy.close();
    await server.close();
  });

  /** A short partition of the waiter: SUSPENDED, then RECONNECTED in the same session. */
  async function blip(): Promise<void> {
    const session = waiter.sessionId;
    const suspended = nextState(waiter, 'SUSPENDED');
    proxy.blackhole();
    await suspended;
    const reconnected = nextState(waiter, 'RECONNECTED');
    proxy.heal();
    await reconnected;
    assert.equal(waiter.sessionId, session, 'the same session');
  }

  it('InterProcessSemaphoreV2.acquire(2): a lease that went unproven while the second was waited for is given back and taken again; both leases are valid', async () => {
    const path = uniquePath('semaphore');
    const leasesPath = joinPath(path, 'leases');
    const held = await new InterProcessSemaphoreV2(other, path, 2).acquire();
    const acquiring = new InterProcessSemaphoreV2(waiter, path, 2).acquire(2);
    // The other client's lease, the waiter's first, and its second, queued until one goes.
    await waitFor(async () => (await other.getChildren(leasesPath)).length === 3, {
      message: 'the first lease taken, the second waiting',
    });
    const inLine = await new InterProcessSemaphoreV2(other, path, 2).getParticipantNodes();
    const first = inLine.find((name) => !held.path.endsWith(name));
    await blip();
    await held.close();
    const leases = await acquiring;
    assert.deepEqual(
      leases.map((lease) => lease.isValid()),
      [true, true],
    );
    assert.ok(
      leases.every((lease) => lease.nodeName !== first),
      'the unproven lease was given back',
    );
    assert.deepEqual(
      (await other.getChildren(leasesPath)).sort(),
      leases.map((lease) => lease.nodeName).sort(),
      'nothing else left',
    );
    await Promise.all(leases.map((lease) => lease.close()));
  });

  it('InterProcessMultiLock: a lock that went unproven while the next was waited for is given back and taken again; every hold is valid', async () => {
    const [firstPath, secondPath] = [uniquePath('multi-a'), uniquePath('multi-b')];
    const blocker = new InterProcessMutex(other, secondPath);
    await blocker.acquire();
    const locks = [firstPath, secondPath].map((path) => new InterProcessMutex(waiter, path));
    const multi = new InterProcessMultiLock(locks);
    const acquiring = multi.acquire();
    await waitFor(async () => (await other.getChildren(secondPath)).length === 2, {
      message: 'the first lock taken, the second waited for',
    });
    const first = locks[0]!.getLockPath();
    await blip();
    assert.equal(locks[0]!.hold?.isValid(), false, 'the first hold went unproven');
    await blocker.release();
    assert.equal(await acquiring, true);
    assert.deepEqual(
      locks.map((lock) => lock.hold?.isValid()),
      [true, true],
    );
    assert.notEqual(locks[0]!.getLockPath(), first, 'the first lock was given back');
    assert.deepEqual(await other.getChildren(firstPath), [
      locks[0]!.getLockPath()!.split('/').pop(),
    ]);
    await multi.release();
  });
});
