// Revocation (Curator's Revoker and InterProcessMutex.makeRevocable) against a real server:
// TestInterProcessMutex.testRevoking, the node data, the clear on release, a stopped server
// and misuse.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConnectionState, type FrameworkClient, isInvalidArgument } from '@zkrecipes/framework';
import { FaultProxy, TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import {
  InterProcessMutex,
  InterProcessReadWriteLock,
  REVOKE_MESSAGE,
  Revoker,
} from '../src/index.js';

describe('Revoker and InterProcessMutex.makeRevocable', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  let other: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    [client, other] = await Promise.all([connectedClient(server), connectedClient(server)]);
  });
  after(async () => {
    await Promise.all([client.close(), other.close()]);
    await server.close();
  });

  it('a revocation request reaches the holder, who releases; then another acquires (testRevoking)', async () => {
    const path = uniquePath('revoking');
    const mutex = new InterProcessMutex(client, path);
    const requests: InterProcessMutex[] = [];
    mutex.makeRevocable((forLock) => {
      requests.push(forLock);
      void forLock.release();
    });
    assert.equal(await mutex.acquire(timing.ms(5000)), true);
    const nodes = await mutex.getParticipantNodes();
    assert.equal(nodes.length, 1);
    await Revoker.attemptRevoke(other, nodes[0]!);
    const second = new InterProcessMutex(other, path);
    assert.equal(await second.acquire(timing.ms(5000)), true);
    assert.deepEqual(requests, [mutex]);
    assert.equal(mutex.isAcquiredInThisProcess(), false);
    await second.release();
  });

  it('a revocable node starts empty whatever lockData says; the request writes __REVOKE__', async () => {
    const path = uniquePath('data');
    const mutex = new InterProcessMutex(client, path, { lockData: Buffer.from('me') });
    assert.equal(await mutex.acquire(0), true);
    assert.equal(Buffer.from((await client.getData(mutex.getLockPath()!)).data).toString(), 'me');
    await mutex.release();
    let revoked = 0;
    mutex.makeRevocable(() => (revoked += 1));
    assert.equal(await mutex.acquire(0), true);
    const node = mutex.getLockPath()!;
    assert.equal((await client.getData(node)).data.length, 0);
    await Revoker.attemptRevoke(other, node);
    assert.deepEqual([...(await other.getData(node)).data], [...REVOKE_MESSAGE]);
    assert.equal(Buffer.from(REVOKE_MESSAGE).toString(), '__REVOKE__');
    await waitFor(() => revoked === 1, { message: 'listener called' });
    // A second request on the same hold is heard again (the watch is set again each time).
    await other.setData(node, Buffer.from('x'));
    await Revoker.attemptRevoke(other, node);
    await waitFor(() => revoked === 2, { message: 'listener called again' });
    await mutex.release();
    // A node that is gone: nothing to revoke, no error.
    await Revoker.attemptRevoke(other, node);
  });

  it('the release that gives the lock back clears makeRevocable, as Curator does', async () => {
    const path = uniquePath('cleared');
    const mutex = new InterProcessMutex(client, path);
    let revoked = 0;
    mutex.makeRevocable(() => (revoked += 1));
    await mutex.acquire();
    await mutex.release();
    await mutex.acquire();
    const node = mutex.getLockPath()!;
    await Revoker.attemptRevoke(other, node);
    // Two round trips of the holder's session: a watch event, and the read it would cause,
    // are answered before them.
    await client.getData(node);
    await client.getData(node);
    assert.equal(revoked, 0);
    await mutex.release();
  });

  it('a revocable waiter hears a request too: its node is watched from its create', async () => {
    const path = uniquePath('waiter');
    const holder = new InterProcessMutex(other, path);
    await holder.acquire();
    const waiter = new InterProcessMutex(client, path);
    const heard: string[] = [];
    const controller = new AbortController();
    waiter.makeRevocable(() => {
      heard.push('revoked');
      controller.abort('revoked while waiting');
    });
    // Its rejection is expected from the start: it may come before attemptRevoke's answer.
    const waiting = assert.rejects(
      waiter.acquire(undefined, { signal: controller.signal }),
      (reason: unknown) => reason === 'revoked while waiting',
    );
    const nodes = await waitFor(async () => {
      const found = await holder.getParticipantNodes();
      return found.length === 2 ? found : undefined;
    });
    await Revoker.attemptRevoke(other, nodes[1]!);
    await waiting;
    assert.deepEqual(heard, ['revoked']);
    await waitFor(async () => (await holder.getParticipantNodes()).length === 1);
    await holder.release();
  });

  it('the read and write locks are revocable too: empty nodes, the listener gets the half, a writer waits for the revoked reader', async () => {
    const path = uniquePath('rw');
    const rw = new InterProcessReadWriteLock(client, path, { lockData: Buffer.from('me') });
    const heard: unknown[] = [];
    rw.writeLock().makeRevocable((forLock) => {
      heard.push(forLock);
      void forLock.release();
    });
    assert.equal(await rw.writeLock().acquire(0), true);
    const writeNode = rw.writeLock().getLockPath()!;
    assert.match(writeNode, /__WRIT__\d{10}$/);
    assert.equal((await client.getData(writeNode)).data.length, 0);
    await Revoker.attemptRevoke(other, writeNode);
    await waitFor(() => !rw.writeLock().isAcquiredInThisProcess(), { message: 'writer let go' });
    assert.deepEqual(
      heard.map((lock) => lock === rw.writeLock()),
      [true],
      'the listener got the write lock',
    );

    rw.readLock().makeRevocable((forLock) => {
      heard.push(forLock);
      void forLock.release();
    });
    assert.equal(await rw.readLock().acquire(0), true);
    const readNode = rw.readLock().getLockPath()!;
    assert.match(readNode, /__READ__\d{10}$/);
    assert.equal((await client.getData(readNode)).data.length, 0);
    const writer = new InterProcessReadWriteLock(other, path).writeLock();
    const writing = writer.acquire(timing.ms(10_000));
    await Revoker.attemptRevoke(other, readNode);
    assert.equal(await writing, true, 'the writer gets the lock once the reader let go');
    assert.deepEqual(
      heard.map((lock) => lock === rw.readLock()),
      [false, true],
      'the listener got the read lock',
    );
    await writer.release();
    // Cleared by the release, as for a mutex: the next read node holds the lock's data again.
    assert.equal(await rw.readLock().acquire(0), true);
    assert.equal(
      Buffer.from((await client.getData(rw.readLock().getLockPath()!)).data).toString(),
      'me',
    );
    await rw.readLock().release();
  });

  it('a request written while the holder is cut off (SUSPENDED) reaches it after the reconnect', async () => {
    const path = uniquePath('suspended');
    const proxy = await FaultProxy.start({ targetPort: server.port });
    const holderClient = await connectedClient(server, {
      connectString: proxy.connectString,
      sessionTimeoutMs: 20_000,
    });
    try {
      const mutex = new InterProcessMutex(holderClient, path);
      let revoked = 0;
      mutex.makeRevocable(() => (revoked += 1));
      await mutex.acquire();
      const node = mutex.getLockPath()!;
      const sessionId = holderClient.sessionId;
      proxy.drop();
      await waitFor(() => holderClient.connectionState === ConnectionState.SUSPENDED, {
        message: 'holder SUSPENDED',
      });
      await Revoker.attemptRevoke(other, node);
      assert.equal(revoked, 0);
      proxy.heal();
      await waitFor(() => revoked === 1, { message: 'the request heard after the reconnect' });
      assert.equal(holderClient.connectionState, ConnectionState.RECONNECTED);
      assert.equal(holderClient.sessionId, sessionId, 'the same session');
      await mutex.release();
    } finally {
      await closeAll([holderClient]);
      await proxy.close();
    }
  });

  it('a listener that throws goes to client.unhandledErrors', async () => {
    const path = uniquePath('throws');
    const mutex = new InterProcessMutex(client, path);
    const reported: unknown[] = [];
    const subscription = client.unhandledErrors.subscribe((entry) => reported.push(entry));
    try {
      mutex.makeRevocable(() => {
        throw new Error('listener failed');
      });
      await mutex.acquire();
      await Revoker.attemptRevoke(other, mutex.getLockPath()!);
      await waitFor(() => reported.length === 1, { message: 'reported' });
      assert.match(
        JSON.stringify(reported[0], Object.getOwnPropertyNames(reported[0])),
        /revocation listener/,
      );
    } finally {
      subscription.unsubscribe();
      await mutex.release();
    }
  });

  it('attemptRevoke with the server stopped settles on time with its signal', async () => {
    const path = uniquePath('stopped');
    const mutex = new InterProcessMutex(client, path);
    mutex.makeRevocable(() => undefined);
    await mutex.acquire();
    const node = mutex.getLockPath()!;
    await server.stop();
    try {
      const limitMs = timing.ms(300);
      const started = performance.now();
      await assert.rejects(
        Revoker.attemptRevoke(other, node, { signal: AbortSignal.timeout(limitMs) }),
        (error: Error) => error.name === 'TimeoutError',
      );
      assert.ok(performance.now() - started < limitMs + timing.ms(500));
    } finally {
      await server.restart();
      await Promise.all([
        client.blockUntilConnected({ timeoutMs: timing.ms(10_000) }),
        other.blockUntilConnected({ timeoutMs: timing.ms(10_000) }),
      ]);
      await mutex.release();
    }
  });

  it('bad input is an InvalidArgumentError before anything is sent', async () => {
    const mutex = new InterProcessMutex(client, uniquePath('misuse'));
    assert.throws(() => mutex.makeRevocable('x' as unknown as () => void), isInvalidArgument);
    await assert.rejects(Revoker.attemptRevoke(client, 'relative'), isInvalidArgument);
    await assert.rejects(Revoker.attemptRevoke(client, '/a/'), isInvalidArgument);
    await assert.rejects(Revoker.attemptRevoke({} as FrameworkClient, '/a'), isInvalidArgument);
    await assert.rejects(
      Revoker.attemptRevoke(client, '/a', { signal: 1 as unknown as AbortSignal }),
      isInvalidArgument,
    );
  });
});
