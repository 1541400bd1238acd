import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  FaultProxy,
  freePort,
  TestingServer,
  timing,
  uniquePath,
  waitFor,
} from '@zkrecipes/testing';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { createFramework } from '../../src/create-framework.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { RetryNTimes } from '../../src/retry/retry-n-times.js';
import { ConnectionState } from '../../src/state/connection-state.js';

const startCloseScript = fileURLToPath(new URL('./fixtures/start-close-child.js', import.meta.url));

/** A client with Curator-like defaults for the waits under test (15 s per connection wait). */
async function connectedClient(connectString: string): Promise<FrameworkClient> {
  const client = createFramework({
    connectString,
    sessionTimeoutMs: 4_000,
    retryPolicy: new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 1_000 }),
    logger: silentLogger,
  });
  await client.start();
  assert.equal(await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) }), true);
  return client;
}

async function elapsedMs(work: () => Promise<unknown>): Promise<number> {
  const startMs = performance.now();
  await work();
  return performance.now() - startMs;
}

async function suspended(client: FrameworkClient): Promise<void> {
  await waitFor(() => client.connectionState === ConnectionState.SUSPENDED, {
    timeoutMs: timing.ms(5_000),
    message: 'SUSPENDED after the server stopped',
  });
}

describe('bounded waits with the server stopped (real server)', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(() => server.close());

  it('an operation with a 1 s signal rejects with the TimeoutError in 1-2 s; close() then takes well under a second', async () => {
    const client = await connectedClient(server.connectString);
    try {
      await server.stop();
      await suspended(client);
      assert.equal(client.isConnected, false);
      let rejection: unknown;
      const tookMs = await elapsedMs(() =>
        client.exists('/', { signal: AbortSignal.timeout(1_000) }).catch((error: unknown) => {
          rejection = error;
        }),
      );
      assert.equal((rejection as Error).name, 'TimeoutError');
      assert.ok(tookMs >= 990 && tookMs < 2_000, `settled after ${tookMs} ms`);
    } finally {
      const closeMs = await elapsedMs(() => client.close());
      assert.ok(closeMs < 500, `close took ${closeMs} ms`);
      await server.restart();
    }
  });

  it('a create aborted while it waits for a connection is never sent; an aborted guaranteed delete completes once the server is back', async () => {
    const client = await connectedClient(server.connectString);
    const doomed = uniquePath('never-created');
    const leftover = uniquePath('deleted-later');
    try {
      await client.create(leftover);
      await server.stop();
      await suspended(client);
      const controller = new AbortController();
      const creating = client.create(doomed, { signal: controller.signal });
      const deleting = client.delete(leftover, { guaranteed: true, signal: controller.signal });
      controller.abort(new Error('given up'));
      await assert.rejects(creating, /given up/);
      await assert.rejects(deleting, /given up/);
      await server.restart();
      assert.equal(await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) }), true);
      // Requests of one session are answered in order: a create released on reconnect would
      // have been applied before this read.
      assert.equal(await client.exists(doomed), null);
      await waitFor(async () => (await client.exists(leftover)) === null, {
        timeoutMs: timing.ms(10_000),
        message: 'the guaranteed delete ran after the reconnect',
      });
    } finally {
      await client.close();
    }
  });

  it('validUntilMs: ahead of now while connected; -Infinity once SUSPENDED under "standard"; under "session" it stays until the LOST deadline', async () => {
    const standard = await connectedClient(server.connectString);
    const session = createFramework({
      connectString: server.connectString,
      sessionTimeoutMs: 4_000,
      errorPolicy: 'session',
      logger: silentLogger,
    });
    await session.start();
    await session.blockUntilConnected({ timeoutMs: timing.ms(10_000) });
    try {
      for (const client of [standard, session]) {
        assert.ok(client.validUntilMs > performance.now(), 'valid while connected');
      }
      await server.stop();
      await suspended(standard);
      await suspended(session);
      assert.equal(standard.validUntilMs, -Infinity);
      const sessionValidUntil = session.validUntilMs;
      assert.ok(Number.isFinite(sessionValidUntil));
      await waitFor(() => session.connectionState === ConnectionState.LOST, {
        timeoutMs: timing.ms(10_000),
        message: 'LOST under the session policy',
      });
      // LOST is declared at the validity deadline, not a session timeout after SUSPENDED.
      assert.ok(performance.now() >= sessionValidUntil - 20);
      assert.equal(session.validUntilMs, -Infinity);
    } finally {
      await standard.close();
      await session.close();
      await server.restart();
    }
  });

  it('close() while the server is paused (a hung server) resolves within about a second', async () => {
    const client = await connectedClient(server.connectString);
    await server.pause();
    try {
      const closeMs = await elapsedMs(() => client.close());
      assert.ok(closeMs < 1_500, `close took ${closeMs} ms`);
    } finally {
      server.resume();
    }
  });

  it('requests already sent to a paused server: a signal ends one on time; close() ends the others at once with ClosedError', async () => {
    const client = await connectedClient(server.connectString);
    const path = uniquePath('in-flight');
    await server.pause();
    try {
      assert.equal(
        client.isConnected,
        true,
        'sent, not parked: the client still reads as connected',
      );
      const outcomes: { name: string; error: unknown; atMs: number }[] = [];
      const settle = (name: string, request: Promise<unknown>): Promise<void> =>
        request.then(
          () => {
            outcomes.push({ name, error: undefined, atMs: performance.now() });
          },
          (error: unknown) => {
            outcomes.push({ name, error, atMs: performance.now() });
          },
        );
      const startMs = performance.now();
      const timed = [
        settle(
          'getChildren with a 500 ms signal',
          client.getChildren('/', { signal: AbortSignal.timeout(500) }),
        ),
        // An unwatched read waits in the connection's read batch: its signal ends it as well.
        settle(
          'getData with a 500 ms signal',
          client.getData('/', { signal: AbortSignal.timeout(500) }),
        ),
      ];
      const untimed = [
        settle('create', client.create(path, { mode: 'EPHEMERAL' })),
        settle('setData', client.setData('/', Buffer.from('x'))),
        settle('delete (guaranteed)', client.delete(path, { guaranteed: true, quietly: true })),
        settle('exists with a watch', client.exists(path, { watch: () => undefined })),
      ];
      await Promise.all(timed);
      for (const outcome of outcomes) {
        assert.equal(
          (outcome.error as Error).name,
          'TimeoutError',
          `${outcome.name}: ${String(outcome.error)}`,
        );
        const timedMs = outcome.atMs - startMs;
        assert.ok(
          timedMs >= 490 && timedMs < 1_000,
          `the signal ended ${outcome.name} after ${timedMs} ms`,
        );
      }
      assert.equal(outcomes.length, 2, 'the others are still waiting for the paused server');

      const closeStartMs = performance.now();
      const closing = client.close();
      await Promise.all(untimed);
      for (const outcome of outcomes.slice(2)) {
        assert.equal(
          (outcome.error as Error).name,
          'ClosedError',
          `${outcome.name}: ${String(outcome.error)}`,
        );
        const afterCloseMs = outcome.atMs - closeStartMs;
        // close() itself waits up to a second for the server's goodbye; the requests do not.
        assert.ok(afterCloseMs < 200, `${outcome.name} ended ${afterCloseMs} ms after close()`);
      }
      await closing;
    } finally {
      server.resume();
      await client.close();
    }
  });

  it('create({ stat: true }) resolves the node Stat from the create reply (create2), equal to what exists reads', async () => {
    const client = await connectedClient(server.connectString);
    try {
      const parent = uniquePath('create2');
      const created = await client.create(`${parent}/n-`, {
        mode: 'EPHEMERAL_SEQUENTIAL',
        createParents: true,
        protection: true,
        data: Buffer.from('x'),
        stat: true,
      });
      const stat = await client.exists(created.path);
      assert.ok(stat);
      assert.equal(created.stat.czxid, stat.czxid);
      assert.equal(created.stat.ephemeralOwner, client.sessionId);
      assert.equal(created.stat.dataLength, 1);
      // A namespace view gets its own paths back.
      const view = client.usingNamespace(parent.slice(1));
      const inView = await view.create('/m', { stat: true });
      assert.equal(inView.path, '/m');
      assert.equal(inView.stat.czxid, (await client.exists(`${parent}/m`))?.czxid);
    } finally {
      await client.close();
    }
  });

  it('start() then close() at once, 20 times in child processes (a live server, an unreachable host): all resolve and every process exits by itself', async () => {
    const unreachable = `127.0.0.1:${await freePort()}`;
    const runOnce = async (connectString: string): Promise<void> => {
      const child = spawn(process.execPath, [startCloseScript, connectString], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exit = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      const timer = setTimeout(() => child.kill('SIGKILL'), timing.ms(10_000));
      const [code, signal] = await exit;
      clearTimeout(timer);
      assert.equal(
        signal,
        null,
        `the process had to be killed: it did not exit by itself (its output: ${JSON.stringify(output)})`,
      );
      assert.equal(code, 0);
      assert.equal(output.trim(), 'CLOSED');
    };
    const targets = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0 ? server.connectString : unreachable,
    );
    for (let i = 0; i < targets.length; i += 5) {
      await Promise.all(targets.slice(i, i + 5).map(runOnce));
    }
  });
});

describe('validity after an event-loop stall, LOST before expiry (real server)', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(() => server.close());

  it('a stall of 1.5 x the session timeout: validUntilMs is already past on the first synchronous line after it', async () => {
    for (const errorPolicy of ['standard', 'session'] as const) {
      const client = createFramework({
        connectString: server.connectString,
        sessionTimeoutMs: 2_000,
        errorPolicy,
        logger: silentLogger,
      });
      await client.start();
      try {
        await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) });
        await client.exists('/');
        const before = performance.now() < client.validUntilMs;
        const until = performance.now() + 3_000;
        while (performance.now() < until) {
          // the stall under test
        }
        const afterStall = performance.now() < client.validUntilMs;
        assert.equal(before, true, errorPolicy);
        assert.equal(afterStall, false, errorPolicy);
      } finally {
        await client.close();
      }
    }
  });

  it('a client behind a blackholed link says LOST (session policy, 100 % and 50 %) or SUSPENDED (standard) before the server expires its session', async () => {
    const trial = async (
      errorPolicy: 'standard' | 'session',
      percent: number,
    ): Promise<{ errorAtMs: number; expiredAtMs: number }> => {
      const proxy = await FaultProxy.start({ targetPort: server.port });
      const partitioned = createFramework({
        connectString: proxy.connectString,
        sessionTimeoutMs: 2_000,
        errorPolicy,
        sessionExpirationPercent: percent,
        logger: silentLogger,
      });
      const observer = createFramework({
        connectString: server.connectString,
        logger: silentLogger,
      });
      await partitioned.start();
      await observer.start();
      try {
        await partitioned.blockUntilConnected({ timeoutMs: timing.ms(10_000) });
        const path = uniquePath('ephemeral');
        await partitioned.create(path, { mode: 'EPHEMERAL' });
        let errorAtMs = Infinity;
        const errorState =
          errorPolicy === 'standard' ? ConnectionState.SUSPENDED : ConnectionState.LOST;
        partitioned.on('stateChanged', (state) => {
          if (state === errorState) errorAtMs = Math.min(errorAtMs, performance.now());
        });
        let expiredAtMs = Infinity;
        await observer.exists(path, { watch: () => (expiredAtMs = performance.now()) });
        proxy.blackhole();
        await waitFor(() => expiredAtMs < Infinity, {
          timeoutMs: timing.ms(15_000),
          message: 'the server expired the partitioned session',
        });
        return { errorAtMs, expiredAtMs };
      } finally {
        await partitioned.close();
        await observer.close();
        await proxy.close();
      }
    };
    const cases = [
      ['standard', 100],
      ['session', 100],
      ['session', 50],
    ] as const;
    const results = await Promise.all(cases.map(([policy, percent]) => trial(policy, percent)));
    results.forEach(({ errorAtMs, expiredAtMs }, i) => {
      assert.ok(
        errorAtMs < expiredAtMs,
        `${cases[i]!.join(' ')}: error state at ${errorAtMs}, expiry seen at ${expiredAtMs}`,
      );
    });
  });
});
