// Leader recipes while ZooKeeper is unreachable: close() and await() end on time, and what a
// close could not delete in the outage is gone once the server is back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ClosedError, isNoNode, type FrameworkClient } from '@zkrecipes/framework';
import {
  FaultProxy,
  freePort,
  TestingServer,
  timing,
  uniquePath,
  waitFor,
} from '@zkrecipes/testing';
import {
  closeAll,
  connectedClient,
  elapsedMs,
  startedClient,
  assertSignalsEndCallsWhilePaused,
  type SignalledCall,
} from '@zkrecipes/test-support';
import { LeaderLatch } from '../src/leader-latch.js';
import { LeaderSelector } from '../src/leader-selector.js';
import { contender, LeaderWitness, startInLine } from './helpers.js';

const SESSION_MS = 4000;

/** close() right after start(): a latch, a selector (leading or not, never connected). */
async function assertPromptCloseAfterStart(connectString: string, label: string): Promise<void> {
  // Never connects: nothing answers at `connectString`.
  const client = await startedClient(connectString, { sessionTimeoutMs: SESSION_MS });
  try {
    const latch = new LeaderLatch(client, uniquePath('outage-latch'));
    const selector = new LeaderSelector(client, uniquePath('outage-selector'), () => undefined);
    await latch.start();
    await selector.start();
    const waiting = latch.await();
    for (const [name, recipe] of Object.entries({ latch, selector })) {
      const tookMs = await elapsedMs(() => recipe.close());
      assert.ok(tookMs < timing.ms(500), `${label}: ${name}.close() took ${tookMs} ms`);
    }
    await assert.rejects(waiting, ClosedError, `${label}: await() ends with the latch`);
  } finally {
    await client.close();
  }
}

/** The children of `path` ([] when it is gone). */
async function children(client: FrameworkClient, path: string): Promise<string[]> {
  return client.getChildren(path).catch((error: unknown) => {
    if (isNoNode(error)) return [];
    throw error;
  });
}

describe('leader recipes with the server stopped or paused', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(() => server.close());

  it('server stopped under connected clients: LeaderLatch.close and LeaderSelector.close (leading and waiting) each resolve in under 1 s; after the restart every node they owned is gone within the session timeout', async (t) => {
    const latchPath = uniquePath('outage-latch');
    const selectorPath = uniquePath('outage-selector');
    const clients = [
      await connectedClient(server, { sessionTimeoutMs: SESSION_MS }),
      await connectedClient(server, { sessionTimeoutMs: SESSION_MS }),
    ];
    const witness = new LeaderWitness();
    const latches = clients.map((client, i) => new LeaderLatch(client, latchPath, { id: `${i}` }));
    const selectors = clients.map(
      (client, i) =>
        contender(client, selectorPath, `${i}`, witness, { autoRequeue: true }).selector,
    );
    let observer: FrameworkClient | undefined;
    try {
      for (const latch of latches) await latch.start();
      for (const selector of selectors) await selector.start();
      await waitFor(async () => (await children(clients[0]!, latchPath)).length === 2);
      await waitFor(async () => (await children(clients[0]!, selectorPath)).length === 2);
      // Both nodes listed does not mean the leader has read the listing yet.
      await waitFor(() => latches.some((latch) => latch.isLeader));
      await server.stop();
      const closeMs: number[] = [];
      for (const recipe of [...latches, ...selectors]) {
        const tookMs = await elapsedMs(() => recipe.close());
        closeMs.push(Math.round(tookMs));
        assert.ok(tookMs < timing.ms(1000), `close() took ${tookMs} ms`);
      }
      t.diagnostic(
        `close() with the server stopped (latches, selectors): ${closeMs.join(', ')} ms`,
      );
      await server.restart();
      const restartedAt = performance.now();
      observer = await connectedClient(server);
      const client = observer;
      await waitFor(
        async () =>
          (await children(client, latchPath)).length === 0 &&
          (await children(client, selectorPath)).length === 0,
        { timeoutMs: SESSION_MS + 1000, message: 'every node of the closed recipes is gone' },
      );
      const goneMs = performance.now() - restartedAt;
      t.diagnostic(`nodes gone ${Math.round(goneMs)} ms after the restart`);
      assert.ok(goneMs < timing.ms(SESSION_MS + 1000), `gone ${goneMs} ms after the restart`);
      assert.deepEqual(witness.violations, []);
    } finally {
      await closeAll([...latches, ...selectors, ...clients, ...(observer ? [observer] : [])]);
    }
  });

  it('server stopped: await({ timeoutMs: 2000 }) resolves false between 2 and 3 s on a leader that lost leadership and on a follower; isValid() is false; close() mid-outage rejects a pending await() with ClosedError; close() right after start() on a client of the stopped server resolves promptly', async (t) => {
    const path = uniquePath('outage-await');
    const clients = [
      await connectedClient(server, { sessionTimeoutMs: SESSION_MS }),
      await connectedClient(server, { sessionTimeoutMs: SESSION_MS }),
    ];
    const [leader, follower] = clients.map(
      (client, i) => new LeaderLatch(client, path, { id: `${i}` }),
    ) as [LeaderLatch, LeaderLatch];
    try {
      await leader.start();
      assert.equal(await leader.await({ timeoutMs: 10_000 }), true);
      await follower.start();
      await waitFor(async () => (await children(clients[0]!, path)).length === 2);
      assert.equal(leader.isValid(), true);
      await server.stop();
      await waitFor(() => !leader.isLeader, { message: 'SUSPENDED ends leadership' });
      assert.equal(leader.isValid(), false);
      assert.equal(leader.validUntil, -Infinity);
      const waits = [leader, follower].map(async (latch) => {
        const startedAt = performance.now();
        const led = await latch.await({ timeoutMs: 2000 });
        return { led, tookMs: performance.now() - startedAt };
      });
      for (const { led, tookMs } of await Promise.all(waits)) {
        t.diagnostic(
          `await({ timeoutMs: 2000 }) with the server stopped: ${Math.round(tookMs)} ms`,
        );
        assert.equal(led, false);
        assert.ok(tookMs >= 1990 && tookMs < timing.ms(3000), `await(2000) took ${tookMs} ms`);
      }
      const pending = follower.await();
      await follower.close();
      await assert.rejects(pending, ClosedError);
      await assertPromptCloseAfterStart(server.connectString, 'server stopped');
      await server.restart();
    } finally {
      await closeAll([leader, follower, ...clients]);
    }
  });

  it('close() right after start() with nothing listening and with a host that accepts but never answers (mid-handshake) resolves promptly', async () => {
    await assertPromptCloseAfterStart(`127.0.0.1:${await freePort()}`, 'nothing listening');
    const proxy = await FaultProxy.start({ targetPort: server.port });
    try {
      proxy.blackhole();
      await assertPromptCloseAfterStart(proxy.connectString, 'blackholed');
    } finally {
      await proxy.close();
    }
  });

  it('server paused (the link still reads as connected): getParticipants and getLeader of a latch and a selector, given { signal: AbortSignal.timeout(1000) }, reject with its TimeoutError in 1 to 1.5 s; an aborted signal rejects at once; after the resume the same calls without a signal answer right', async (t) => {
    // A 30 s session: the liveness check would call the connection dead only after 20 s.
    const client = await connectedClient(server, { sessionTimeoutMs: 30_000 });
    const latch = new LeaderLatch(client, uniquePath('paused-latch'), { id: 'latch-0' });
    const leader = contender(
      client,
      uniquePath('paused-selector'),
      'selector-0',
      new LeaderWitness(),
    );
    const { selector } = leader;
    const queries: SignalledCall[] = [
      ['latch.getParticipants', (signal) => latch.getParticipants({ signal })],
      ['latch.getLeader', (signal) => latch.getLeader({ signal })],
      ['selector.getParticipants', (signal) => selector.getParticipants({ signal })],
      ['selector.getLeader', (signal) => selector.getLeader({ signal })],
    ];
    try {
      await latch.start();
      assert.equal(await latch.await({ timeoutMs: 10_000 }), true);
      await startInLine(leader);
      await assertSignalsEndCallsWhilePaused(server, client, queries, {
        diagnostic: (message) => t.diagnostic(message),
      });
      assert.deepEqual(await latch.getParticipants(), [{ id: 'latch-0', isLeader: true }]);
      assert.deepEqual(await latch.getLeader(), { id: 'latch-0', isLeader: true });
      assert.deepEqual(await selector.getParticipants(), [{ id: 'selector-0', isLeader: true }]);
      assert.deepEqual(await selector.getLeader(), { id: 'selector-0', isLeader: true });
    } finally {
      if (server.paused) server.resume();
      await closeAll([latch, selector, client]);
    }
  });
});
