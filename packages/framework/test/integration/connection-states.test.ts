import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { firstValueFrom, filter, type Observable } from 'rxjs';
import { killSession, TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { ConnectionState } from '../../src/state/connection-state.js';
import { RetryOneTime } from '../../src/retry/retry-one-time.js';
import { silentLogger } from '../../src/logging/silent-logger.js';

/** Records every state change with the time it was seen. */
function recordStates(client: FrameworkClient): { state: ConnectionState; atMs: number }[] {
  const seen: { state: ConnectionState; atMs: number }[] = [];
  client.on('stateChanged', (state) => seen.push({ state, atMs: performance.now() }));
  return seen;
}

function nextState(
  states: Observable<ConnectionState>,
  wanted: ConnectionState,
): Promise<ConnectionState> {
  return firstValueFrom(states.pipe(filter((s) => s === wanted)));
}

async function connectedClient(
  server: TestingServer,
  options: {
    sessionExpirationPercent?: number;
    sessionTimeoutMs?: number;
    connectionTimeoutMs?: number;
  } = {},
): Promise<FrameworkClient> {
  const client = createFramework({
    connectString: server.connectString,
    sessionTimeoutMs: options.sessionTimeoutMs ?? 3000,
    connectionTimeoutMs: options.connectionTimeoutMs ?? 20_000,
    sessionExpirationPercent: options.sessionExpirationPercent ?? 100,
    retryPolicy: new RetryOneTime({ sleepBetweenRetryMs: 100 }),
    logger: silentLogger,
  });
  await client.start();
  assert.equal(await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) }), true);
  return client;
}

describe('connection states against a real server', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(() => server.close());

  it('server stopped and restarted within the session timeout: SUSPENDED then RECONNECTED, same session, ephemeral kept', async () => {
    const client = await connectedClient(server, { sessionTimeoutMs: 10_000 });
    try {
      const path = await client.create(uniquePath('eph'), { mode: 'EPHEMERAL' });
      const sessionBefore = client.sessionId;
      const seen = recordStates(client);
      const suspended = nextState(client.connectionStates, ConnectionState.SUSPENDED);
      await server.stop();
      await suspended;
      await server.restart();
      await waitFor(() => seen.some((s) => s.state === ConnectionState.RECONNECTED), {
        timeoutMs: 15_000,
        message: 'RECONNECTED after restart',
      });
      assert.deepEqual(
        seen.map((s) => s.state),
        [ConnectionState.SUSPENDED, ConnectionState.RECONNECTED],
      );
      assert.equal(client.sessionId, sessionBefore);
      assert.notEqual(await client.exists(path), null);
    } finally {
      await client.close();
    }
  });

  it('for await over connectionStates: CONNECTED, SUSPENDED with the server stopped, RECONNECTED; the loop ends on close() while the server is down', async () => {
    const client = await connectedClient(server, { sessionTimeoutMs: 10_000 });
    const seen: ConnectionState[] = [];
    const loop = (async () => {
      for await (const state of client.connectionStates) seen.push(state);
      return 'ended';
    })();
    try {
      await waitFor(() => seen.length === 1, { message: 'the current state replayed' });
      await server.stop();
      await waitFor(() => seen.includes(ConnectionState.SUSPENDED), { message: 'SUSPENDED' });
      await server.restart();
      await waitFor(() => seen.includes(ConnectionState.RECONNECTED), {
        timeoutMs: 15_000,
        message: 'RECONNECTED',
      });
      await server.stop();
      await waitFor(() => seen.at(-1) === ConnectionState.SUSPENDED, {
        message: 'SUSPENDED again',
      });
    } finally {
      const closeStartedAt = performance.now();
      await client.close();
      assert.equal(await loop, 'ended');
      assert.ok(
        performance.now() - closeStartedAt < timing.ms(2000),
        'the loop ended with close()',
      );
      await server.restart();
    }
    assert.deepEqual(seen, [
      ConnectionState.CONNECTED,
      ConnectionState.SUSPENDED,
      ConnectionState.RECONNECTED,
      ConnectionState.SUSPENDED,
    ]);
  });

  for (const percent of [100, 50]) {
    it(`server down past the session timeout (percent ${percent}): LOST once timeout x ${percent}% has passed since the server last heard the session, then RECONNECTED with a new session`, async () => {
      const client = await connectedClient(server, { sessionExpirationPercent: percent });
      try {
        const sessionBefore = client.sessionId;
        const seen = recordStates(client);
        await server.stop();
        await waitFor(() => seen.some((s) => s.state === ConnectionState.LOST), {
          timeoutMs: 15_000,
          message: 'LOST',
        });
        const suspendedAt = seen.find((s) => s.state === ConnectionState.SUSPENDED)?.atMs;
        const lostAt = seen.find((s) => s.state === ConnectionState.LOST)?.atMs;
        assert.ok(suspendedAt !== undefined && lostAt !== undefined);
        // Counted from the send time of the last answered request, which an idle client
        // refreshes at least every third of the timeout (its probe): so LOST comes up to that
        // much (plus a probe tick) before SUSPENDED + timeout x percent, never after it.
        const windowMs = (3000 * percent) / 100;
        const sinceSuspendedMs = lostAt - suspendedAt;
        const tolerance = timing.ms(400);
        assert.ok(
          sinceSuspendedMs <= windowMs + tolerance &&
            sinceSuspendedMs >= windowMs - 1000 - tolerance,
          `LOST came ${Math.round(sinceSuspendedMs)} ms after SUSPENDED, window ${windowMs} ms`,
        );
        await server.restart();
        await waitFor(() => seen.some((s) => s.state === ConnectionState.RECONNECTED), {
          timeoutMs: 15_000,
          message: 'RECONNECTED after the server returned',
        });
        assert.notEqual(client.sessionId, sessionBefore);
        await client.create(uniquePath('after-lost'), { mode: 'EPHEMERAL' });
      } finally {
        await client.close();
      }
    });
  }

  it('server paused (SIGSTOP) past the timeout: SUSPENDED within about 2/3 of the timeout, then LOST; no operation hangs', async () => {
    // An operation waits at most requestTimeoutMs (the session timeout) for a reply, then at
    // most connectionTimeoutMs for a connection on its retry.
    const connectionTimeoutMs = 3000;
    const client = await connectedClient(server, { connectionTimeoutMs });
    try {
      const seen = recordStates(client);
      const pausedAt = performance.now();
      await server.pause();
      let settledAfterMs = Infinity;
      const pending = client.exists('/').then(
        () => 'answered',
        (error: unknown) => (error as Error).name,
      );
      void pending.finally(() => {
        settledAfterMs = performance.now() - pausedAt;
      });
      await waitFor(() => seen.some((s) => s.state === ConnectionState.LOST), {
        timeoutMs: 15_000,
        message: 'LOST while paused',
      });
      const suspendedAt = seen.find((s) => s.state === ConnectionState.SUSPENDED)?.atMs ?? Infinity;
      assert.ok(
        suspendedAt - pausedAt <= 2000 + timing.ms(500),
        `SUSPENDED after ${Math.round(suspendedAt - pausedAt)} ms, expected within ~2000`,
      );
      // The operation issued during the pause failed within its deadlines instead of hanging.
      assert.notEqual(await pending, 'answered');
      assert.ok(
        settledAfterMs <= 3000 + connectionTimeoutMs + timing.ms(1000),
        `the operation settled after ${Math.round(settledAfterMs)} ms`,
      );
      server.resume();
      await waitFor(() => seen.some((s) => s.state === ConnectionState.RECONNECTED), {
        timeoutMs: 15_000,
        message: 'RECONNECTED after resume',
      });
      assert.ok(await client.exists('/'));
    } finally {
      server.resume();
      await client.close();
    }
  });

  it('killSession: LOST, then RECONNECTED with a new session; operations then succeed', async () => {
    const client = await connectedClient(server);
    try {
      const path = await client.create(uniquePath('eph'), { mode: 'EPHEMERAL' });
      const sessionBefore = client.sessionId;
      const seen = recordStates(client);
      await killSession(client, server.connectString);
      // The takeover may first bounce the client (SUSPENDED, RECONNECTED on the same session)
      // before the session is closed; what matters is LOST followed by a new session.
      await waitFor(
        () => {
          const lostAt = seen.findIndex((s) => s.state === ConnectionState.LOST);
          return (
            lostAt >= 0 && seen.slice(lostAt).some((s) => s.state === ConnectionState.RECONNECTED)
          );
        },
        { timeoutMs: 15_000, message: 'LOST then RECONNECTED after killSession' },
      );
      assert.notEqual(client.sessionId, sessionBefore);
      assert.equal(await client.exists(path), null);
      const again = await client.create(uniquePath('eph'), { mode: 'EPHEMERAL' });
      assert.notEqual(await client.exists(again), null);
    } finally {
      await client.close();
    }
  });
});
