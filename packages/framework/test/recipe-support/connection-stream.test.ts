// The connection stream against a real server: losses per error policy, the per-connection
// signal, the close, and a bounded wait with the server stopped.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { killSession, TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import type { ErrorPolicy } from '../../src/state/connection-state.js';
import type { LossCause } from '../../src/state/connection-stream.js';
import { RetryOneTime } from '../../src/retry/retry-one-time.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { connectionStreamOf } from '../../src/recipe-support/connection-stream-of.js';
import { TIMED_OUT, waitForWake } from '../../src/recipe-support/wait-for-wake.js';
import { Wake } from '../../src/recipe-support/wake.js';
import { NOT_CONNECTED } from '../../src/state/connection-bound-signal.js';
import { whileConnected } from '../../src/recipe-support/while-connected.js';

async function connectedClient(
  server: TestingServer,
  options: { errorPolicy?: ErrorPolicy; sessionTimeoutMs?: number } = {},
): Promise<FrameworkClient> {
  const client = createFramework({
    connectString: server.connectString,
    sessionTimeoutMs: options.sessionTimeoutMs ?? 3000,
    connectionTimeoutMs: 20_000,
    errorPolicy: options.errorPolicy ?? 'standard',
    retryPolicy: new RetryOneTime({ sleepBetweenRetryMs: 100 }),
    logger: silentLogger,
  });
  await client.start();
  assert.equal(await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) }), true);
  return client;
}

describe('ConnectionStream', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(() => server.close());

  it("server stopped past the session timeout under 'standard': the epoch grows at SUSPENDED and again at LOST, the connection's signal aborts", async () => {
    const client = await connectedClient(server);
    const stream = connectionStreamOf(client);
    try {
      const epoch = stream.epoch;
      assert.equal(stream.lossSince(epoch), undefined);
      const connection = stream.connectionSignal();
      assert.equal(connection.aborted, false);
      assert.equal(stream.connectionSignal(), connection, 'one signal per connection');
      const causes: LossCause[] = [];
      stream.onNextLoss((cause) => {
        causes.push(cause);
        stream.onNextLoss((next) => causes.push(next));
      });
      await server.stop();
      await waitFor(() => connection.aborted, { timeoutMs: timing.ms(10_000) });
      assert.equal((connection.reason as Error).name, 'ConnectionLossError');
      assert.equal(stream.connectionSignal().aborted, true, 'no connection: aborted at once');
      await waitFor(() => causes.length === 2, { timeoutMs: timing.ms(15_000) });
      assert.deepEqual(causes, ['SUSPENDED', 'LOST']);
      assert.equal(stream.epoch, epoch + 2);
      assert.equal(stream.lossSince(epoch), 'LOST');
    } finally {
      await server.restart();
      await client.close();
    }
  });

  it("under 'session' SUSPENDED is no loss, the session's expiry is", async () => {
    const client = await connectedClient(server, {
      errorPolicy: 'session',
      sessionTimeoutMs: 10_000,
    });
    const stream = connectionStreamOf(client);
    try {
      const epoch = stream.epoch;
      const connection = stream.connectionSignal();
      await server.stop();
      await waitFor(() => client.connectionState === 'SUSPENDED', { timeoutMs: timing.ms(10_000) });
      assert.equal(connection.aborted, true, 'the connection went all the same');
      assert.equal(stream.epoch, epoch);
      assert.equal(stream.lossSince(epoch), undefined);
      await server.restart();
      await waitFor(() => client.connectionState === 'RECONNECTED', {
        timeoutMs: timing.ms(15_000),
      });
      assert.equal(stream.epoch, epoch, 'same session back: nothing was lost');
      assert.equal(stream.connectionSignal().aborted, false, 'a new connection, a new signal');

      const lost = new Promise<LossCause>((resolve) => stream.onNextLoss(resolve));
      await killSession(client, server.connectString);
      assert.equal(await lost, 'LOST');
      assert.equal(stream.lossSince(epoch), 'LOST');
    } finally {
      await client.close();
    }
  });

  it("an event-loop stall past two thirds of the session timeout under 'standard': isValidSince is false on the first line after it, before any state says so, and true again for the epoch after RECONNECTED", async () => {
    const client = await connectedClient(server);
    const stream = connectionStreamOf(client);
    try {
      await client.exists('/'); // the server heard the session just now
      const epoch = stream.epoch;
      assert.equal(stream.isValidSince(epoch), true);
      const until = performance.now() + 2300; // past 2000 ms, short of the 3000 ms session
      while (performance.now() < until) {
        // the stall
      }
      assert.equal(stream.lossSince(epoch), undefined, 'no state has said so yet');
      assert.equal(stream.isValidSince(epoch), false);
      assert.ok(stream.validUntilSince(epoch) < performance.now());
      await waitFor(() => client.connectionState === 'RECONNECTED', {
        timeoutMs: timing.ms(10_000),
      });
      assert.equal(stream.isValidSince(epoch), false, 'a loss came since');
      assert.equal(stream.validUntilSince(epoch), -Infinity);
      assert.equal(stream.isValidSince(stream.epoch), true, 'proven again');
    } finally {
      await client.close();
    }
  });

  it('the closed signal aborts as close() begins, before it resolves, and counts as a loss', async () => {
    const client = await connectedClient(server);
    const stream = connectionStreamOf(client);
    const epoch = stream.epoch;
    const heard: LossCause[] = [];
    stream.onNextLoss((cause) => heard.push(cause));
    const connection = stream.connectionSignal();
    let closed = false;
    const closing = client.close().then(() => (closed = true));
    assert.equal(stream.closedSignal.aborted, true);
    assert.equal((stream.closedSignal.reason as Error).name, 'ClosedError');
    assert.equal(closed, false, 'close() has not finished yet');
    assert.deepEqual(heard, ['CLOSED']);
    assert.equal(stream.epoch, epoch + 1);
    assert.equal(stream.lossSince(epoch), 'CLOSED');
    assert.equal(connection.aborted, true);
    await closing;
    assert.equal(stream.state, undefined);
  });

  it('server stopped: a wait with a deadline resolves TIMED_OUT on time; whileConnected aborts', async () => {
    const client = await connectedClient(server, { sessionTimeoutMs: 10_000 });
    const stream = connectionStreamOf(client);
    try {
      const path = await client.create(uniquePath('wake'), { data: Buffer.from('x') });
      const wake = new Wake();
      await client.getData(path, { watch: wake.watch, signal: wake.signal });
      const connected = whileConnected(client);
      await server.stop();
      await waitFor(() => connected.signal.aborted, { timeoutMs: timing.ms(10_000) });
      assert.equal(connected.signal.reason, NOT_CONNECTED);
      const waitMs = timing.ms(500);
      const startMs = performance.now();
      const outcome = await waitForWake(wake.event, {
        deadline: startMs + waitMs,
        closed: stream.closedSignal,
        path,
      });
      const elapsedMs = performance.now() - startMs;
      assert.equal(outcome, TIMED_OUT);
      assert.ok(elapsedMs >= waitMs - 5 && elapsedMs < waitMs + timing.ms(1000), `${elapsedMs} ms`);
      assert.equal(await whileConnected(client).wait(new Promise(() => undefined)), false);
      // The close rejects a wait still under way, at once.
      const pending = waitForWake(wake.event, { closed: stream.closedSignal, path });
      const closing = client.close();
      await assert.rejects(pending, { name: 'ClosedError', path });
      await closing;
    } finally {
      await server.restart();
      await client.close();
    }
  });

  it("onState calls come in the same order as the client's own stateChanged listeners", async () => {
    const client = await connectedClient(server, { sessionTimeoutMs: 10_000 });
    const seen: string[] = [];
    try {
      client.on('stateChanged', (state) => seen.push(`user1:${state}`));
      connectionStreamOf(client).onState((state) => seen.push(`recipe:${state}`));
      connectionStreamOf(client).onChange((state) => seen.push(`sync:${state}`));
      client.on('stateChanged', (state) => seen.push(`user2:${state}`));
      await server.stop();
      await waitFor(() => seen.length >= 4, { timeoutMs: timing.ms(10_000) });
      assert.deepEqual(seen.slice(0, 4), [
        'sync:SUSPENDED',
        'user1:SUSPENDED',
        'recipe:SUSPENDED',
        'user2:SUSPENDED',
      ]);
    } finally {
      await server.restart();
      await client.close();
    }
  });
});
