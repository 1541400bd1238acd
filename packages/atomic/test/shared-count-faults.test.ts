// TestSharedCount's connection scenarios (testDisconnectEventOnWatcherDoesNotRetry,
// testDisconnectReconnectEventDoesNotFireValueWatcher, testDisconnectReconnectWithMultipleClients),
// a new session after expiry, and every call settling with the server stopped.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConnectionState, type FrameworkClient, isClosed, RetryNTimes } from '@zkrecipes/framework';
import {
  FaultProxy,
  killSession,
  TestingServer,
  timing,
  uniquePath,
  waitFor,
} from '@zkrecipes/testing';
import { connect, timed } from '@zkrecipes/test-support';
import { DistributedAtomicLong, SharedCount } from '../src/index.js';

describe('SharedCount across outages', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    // A session that outlives the restarts, so the count sees SUSPENDED and RECONNECTED.
    client = await connect(server.connectString, {
      sessionTimeoutMs: 30_000,
      retryPolicy: new RetryNTimes({ n: 10, sleepBetweenRetriesMs: 500 }),
    });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('hears SUSPENDED promptly when the server stops, then re-reads on RECONNECTED and notifies again (CURATOR-311)', async () => {
    const path = uniquePath('reconnect');
    await using count = new SharedCount(client, path, 10);
    const states: ConnectionState[] = [];
    let changes = 0;
    count.on('stateChanged', (state) => states.push(state));
    count.on('countChanged', () => (changes += 1));
    await count.start();
    await count.setCount(11);
    await waitFor(() => changes === 1, { message: 'first change' });

    await server.stop();
    await waitFor(() => states.includes(ConnectionState.SUSPENDED), {
      timeoutMs: 5000,
      message: 'SUSPENDED',
    });
    await server.restart();
    // A restarted JVM on a loaded machine can take longer than the default 10 s to serve.
    await waitFor(() => states.includes(ConnectionState.RECONNECTED), {
      timeoutMs: 30_000,
      message: 'RECONNECTED',
    });
    // The reconnect reads the node and tells the listeners, although nothing changed.
    await waitFor(() => changes === 2, { message: 'the reconnect read notified' });
    assert.equal(count.getCount(), 11);
    assert.equal(await count.trySetCount(count.getVersionedValue(), 12), true);
    await waitFor(() => changes === 3, { message: 'own write notified' });
    assert.equal(count.getCount(), 12);
  });

  it('a second client follows every value written while its server restarts (testDisconnectReconnectWithMultipleClients)', async () => {
    const path = uniquePath('multi-restart');
    const writerClient = await connect(server.connectString, { sessionTimeoutMs: 30_000 });
    try {
      await using writer = new SharedCount(writerClient, path, 10);
      await using reader = new SharedCount(client, path, 10);
      let reconnects = 0;
      reader.on('stateChanged', (state) => {
        if (state === ConnectionState.RECONNECTED) reconnects += 1;
      });
      await writer.start();
      await writer.setCount(12);
      await reader.start();
      assert.equal(reader.getCount(), 12);
      for (let i = 0; i < 3; i++) {
        await writer.setCount(13 + i);
        await server.restart();
        // A restarted JVM on a loaded machine can take longer than the default 10 s to serve.
        await waitFor(() => reconnects === i + 1, {
          timeoutMs: 30_000,
          message: `reconnect ${i + 1}`,
        });
        await waitFor(() => reader.getCount() === 13 + i, { message: `reader has ${13 + i}` });
      }
    } finally {
      await writerClient.close();
    }
  });

  it('after its session expires the count keeps following the node (LOST, then a new session)', async () => {
    const path = uniquePath('expired');
    // Its own short session: if the client re-attaches in the instant the session is killed,
    // the server keeps that connection open but drops its requests, so only the missed-ping
    // deadline (2/3 of the session timeout) tells the client; on the shared 30 s session that
    // took longer than the wait below.
    await using expiring = await connect(server.connectString, { sessionTimeoutMs: 4000 });
    await using count = new SharedCount(expiring, path, 1);
    const states: ConnectionState[] = [];
    count.on('stateChanged', (state) => states.push(state));
    await count.start();
    await killSession(expiring, server.connectString);
    await waitFor(() => states.includes(ConnectionState.LOST), { message: 'LOST' });
    await waitFor(
      () => states.indexOf(ConnectionState.RECONNECTED, states.indexOf(ConnectionState.LOST)) > 0,
      {
        message: 'RECONNECTED after LOST',
      },
    );
    const writer = await connect(server.connectString);
    try {
      for (const next of [5, 6]) {
        await writer.setData(path, Buffer.from([0, 0, 0, next]));
        await waitFor(() => count.getCount() === next, { message: `count follows ${next}` });
      }
    } finally {
      await writer.close();
    }
  });

  it('link blackholed: calls with a signal settle on time, close() is prompt, and the count catches up after the heal', async () => {
    const path = uniquePath('blackholed');
    const proxy = await FaultProxy.start({ targetPort: server.port });
    const cutOff = await connect(proxy.connectString, { sessionTimeoutMs: 20_000 });
    try {
      const count = new SharedCount(cutOff, path, 1);
      await count.start();
      const counter = new DistributedAtomicLong(
        cutOff,
        `${path}-long`,
        new RetryNTimes({ n: 0, sleepBetweenRetriesMs: 0 }),
      );
      proxy.blackhole();
      const limitMs = timing.ms(300);
      for (const call of [
        () => count.setCount(2, { signal: AbortSignal.timeout(limitMs) }),
        () =>
          count.trySetCount(count.getVersionedValue(), 2, { signal: AbortSignal.timeout(limitMs) }),
        () => counter.increment({ signal: AbortSignal.timeout(limitMs) }),
      ]) {
        const result = await timed(call);
        assert.equal(
          (result.error as Error | undefined)?.name,
          'TimeoutError',
          String(result.error),
        );
        assert.ok(result.ms < limitMs + timing.ms(500), `settled after ${result.ms.toFixed(0)} ms`);
      }
      // Written meanwhile by another client. The cut-off writes above were given up, not
      // withdrawn: held in the link, they may still reach the server after this one.
      await client.setData(path, Buffer.from([0, 0, 0, 42]));
      proxy.heal();
      await waitFor(
        async () => {
          const onServer = Buffer.from((await client.getData(path)).data).readInt32BE(0);
          return count.getCount() === onServer && count.getVersionedValue().version >= 1;
        },
        { message: 'caught up with the server after the heal' },
      );
      const pending = timed(() => count.setCount(43));
      proxy.blackhole();
      const late = timed(() => count.setCount(44));
      const closed = await timed(() => count.close());
      assert.ok(closed.ms < 100, `close() took ${closed.ms.toFixed(0)} ms`);
      const [first, second] = await Promise.all([pending, late]);
      // The first may have been answered before the blackhole; the second cannot have been.
      assert.ok(first.error === undefined || isClosed(first.error), String(first.error));
      assert.ok(isClosed(second.error), String(second.error));
      assert.ok(second.ms < 1000, `settled after ${second.ms.toFixed(0)} ms`);
    } finally {
      proxy.heal();
      await cutOff.close();
      await proxy.close();
    }
  });

  it('server stopped: calls with a signal settle on time, close() is prompt and rejects the rest with ClosedError', async () => {
    const path = uniquePath('stopped');
    const count = new SharedCount(client, path, 3);
    await count.start();
    const late = new SharedCount(client, `${path}-late`, 3);
    await server.stop();
    await waitFor(() => !client.isConnected, { message: 'SUSPENDED' });
    try {
      const limitMs = timing.ms(300);
      for (const call of [
        () => count.setCount(4, { signal: AbortSignal.timeout(limitMs) }),
        () =>
          count.trySetCount(count.getVersionedValue(), 4, { signal: AbortSignal.timeout(limitMs) }),
        () => late.start({ signal: AbortSignal.timeout(limitMs) }),
      ]) {
        const result = await timed(call);
        assert.equal((result.error as Error | undefined)?.name, 'TimeoutError');
        assert.ok(result.ms < limitMs + timing.ms(500), `settled after ${result.ms.toFixed(0)} ms`);
      }
      // The cached count stays readable.
      assert.equal(count.getCount(), 3);
      // No signal: they wait for the connection until the count is closed.
      const pending = [
        timed(() => count.setCount(5)),
        timed(() => count.trySetCount(count.getVersionedValue(), 5)),
      ];
      const closed = await timed(() => count.close());
      assert.ok(closed.ms < 100, `close() took ${closed.ms.toFixed(0)} ms`);
      for (const result of await Promise.all(pending)) {
        assert.ok(isClosed(result.error), String(result.error));
        assert.ok(result.ms < 1000, `settled after ${result.ms.toFixed(0)} ms`);
      }
      await assert.rejects(count.setCount(6), isClosed);
    } finally {
      await count.close();
      await late.close();
      await server.restart();
      await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) });
    }
    // Nothing was written while the server was down.
    assert.equal(Buffer.from((await client.getData(path)).data).toString('hex'), '00000003');
  });
});
