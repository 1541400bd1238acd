// InterProcessSemaphoreV2 sized by a SharedCount (Curator's SharedCountReader constructor): the
// lease limit follows the count as another client changes it, on a real server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FrameworkClient, isInvalidArgument } from '@zkrecipes/framework';
import { InterProcessSemaphoreV2, type Lease, type SharedCountReader } from '@zkrecipes/locks';
import { timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { serverAndTwoClients, type ServerAndTwoClients } from '@zkrecipes/test-support';
import { SharedCount } from '../src/index.js';

describe('InterProcessSemaphoreV2 sized by a SharedCount', () => {
  let setup: ServerAndTwoClients;
  let client: FrameworkClient;
  let other: FrameworkClient;
  before(async () => {
    setup = await serverAndTwoClients();
    ({ client, other } = setup);
  });
  after(() => setup.close());

  it('a waiter gets its lease when another client raises the count, and acquire(1, 0) follows the count', async () => {
    const path = uniquePath('sized');
    const countPath = `${path}-count`;
    await using count = new SharedCount(client, countPath, 1);
    await count.start();
    const reader: SharedCountReader = count; // what the semaphore takes
    const semaphore = new InterProcessSemaphoreV2(client, path, reader);
    const first = await semaphore.acquire(1, timing.ms(5000));
    assert.equal(first?.length, 1);
    assert.equal(await semaphore.acquire(1, 0), undefined, 'a count of 1 is full');
    const outcome: { granted?: Lease[] | undefined } = {};
    const waiting = semaphore
      .acquire(1, timing.ms(20_000))
      .then((leases) => (outcome.granted = leases));
    await waitFor(async () => (await semaphore.getParticipantNodes()).length === 2 || undefined, {
      message: 'the waiter queued its lease node',
    });
    assert.equal(outcome.granted, undefined, 'still waiting at a count of 1');
    // Another client, with a SharedCount of its own, raises the limit.
    await using remote = new SharedCount(other, countPath, 0);
    await remote.start();
    await remote.setCount(2);
    const granted = await waiting;
    assert.equal(granted?.length, 1, 'the waiter got its lease');
    await remote.setCount(3);
    await waitFor(() => count.getCount() === 3);
    const third = await semaphore.acquire(1, 0);
    assert.equal(third?.length, 1, 'a count of 3 lets a third lease in at once');
    await remote.setCount(1);
    await waitFor(() => count.getCount() === 1);
    await semaphore.returnAll([...first, ...granted, ...third]);
    const again = await semaphore.acquire(1, 0);
    assert.equal(again?.length, 1);
    assert.equal(await semaphore.acquire(1, 0), undefined, 'lowered back to 1');
    await semaphore.returnAll(again);
  });

  it('a qty above the count waits for the count to grow instead of failing; a count of 0 lets nobody in', async () => {
    const path = uniquePath('qty');
    await using count = new SharedCount(client, `${path}-count`, 0);
    await count.start();
    const semaphore = new InterProcessSemaphoreV2(client, path, count);
    assert.equal(await semaphore.acquire(1, 0), undefined, 'a count of 0');
    assert.equal(await semaphore.acquire(2, timing.ms(200)), undefined, 'timed out at 0');
    assert.deepEqual(await semaphore.getParticipantNodes(), [], 'nothing left behind');
    const waiting = semaphore.acquire(2, timing.ms(20_000));
    await count.setCount(2);
    const leases = await waiting;
    assert.equal(leases?.length, 2);
    await semaphore.returnAll(leases);
  });

  it('the count is followed only while acquires run: no listener is left on it', async () => {
    const path = uniquePath('listeners');
    let listening = 0;
    const reader: SharedCountReader = {
      getCount: () => 1,
      on: () => {
        listening += 1;
        return () => (listening -= 1);
      },
    };
    const semaphore = new InterProcessSemaphoreV2(client, path, reader);
    const lease = await semaphore.acquire();
    assert.equal(listening, 0);
    const waiting = semaphore.acquire(1, timing.ms(5000));
    await waitFor(() => listening === 1, { message: 'the waiting acquire listens to the count' });
    await lease.close(); // the waiter gets it, and stops listening
    const second = await waiting;
    assert.equal(second?.length, 1);
    assert.equal(listening, 0);
    await semaphore.returnAll(second);
    assert.throws(
      () => new InterProcessSemaphoreV2(client, path, { getCount: () => 1 } as never),
      isInvalidArgument,
    );
    assert.throws(() => new InterProcessSemaphoreV2(client, path, 0), isInvalidArgument);
  });
});
