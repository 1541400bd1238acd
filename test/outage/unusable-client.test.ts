// A client not started yet, or closed: calls that can answer without a request (acquire(0)
// while not connected) reject as every other call of that client does, and a LeaderLatch
// started before its client rejects instead of failing in the background.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createFramework, isClosed, isIllegalState } from '@zkrecipes/framework';
import { LeaderLatch } from '@zkrecipes/leader';
import { InterProcessMutex, InterProcessSemaphoreV2 } from '@zkrecipes/locks';
import { TestingServer, uniquePath } from '@zkrecipes/testing';

describe('look-once calls on a client that is not started, or closed', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(async () => {
    await server.close();
  });

  it('acquire(0) of a mutex and a semaphore rejects IllegalStateError before start(), ClosedError after close(), as acquire() does', async () => {
    const client = createFramework({ connectString: server.connectString });
    const mutex = new InterProcessMutex(client, uniquePath('mutex'));
    const semaphore = new InterProcessSemaphoreV2(client, uniquePath('semaphore'), 2);
    await assert.rejects(mutex.acquire(0), isIllegalState);
    await assert.rejects(mutex.acquire(), isIllegalState);
    await assert.rejects(semaphore.acquire(1, 0), isIllegalState);
    await client.start();
    await client.close();
    await assert.rejects(mutex.acquire(0), isClosed);
    await assert.rejects(mutex.acquire(), isClosed);
    await assert.rejects(semaphore.acquire(1, 0), isClosed);
  });

  it('LeaderLatch.start() before the client starts rejects IllegalStateError and leaves the latch startable', async () => {
    const client = createFramework({ connectString: server.connectString });
    const latch = new LeaderLatch(client, uniquePath('latch'));
    await assert.rejects(latch.start(), isIllegalState);
    await client.start();
    try {
      await latch.start();
      assert.equal(await latch.await({ timeoutMs: 10_000 }), true);
      await latch.close();
    } finally {
      await client.close();
    }
  });
});
