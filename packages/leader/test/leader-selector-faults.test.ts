import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import {
  ConnectionState,
  isClosed,
  isConnectionLoss,
  isSessionExpired,
  type FrameworkClient,
} from '@zkrecipes/framework';
import {
  FaultProxy,
  killSession,
  TestingServer,
  timing,
  uniquePath,
  waitFor,
} from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import { LeaderLatch } from '../src/leader-latch.js';
import { LeaderSelector } from '../src/leader-selector.js';
import type { Leadership } from '../src/leadership.js';
import { aborted, contender, ids, LeaderWitness, startInLine } from './helpers.js';

// dist/test/*.test.js -> dist/test/fixtures/leader-process.js
const leaderProcess = new URL('./fixtures/leader-process.js', import.meta.url).pathname;

function nodesOf(client: FrameworkClient, path: string): Promise<string[]> {
  return client.getChildren(path).then((children) => children.sort());
}

/** Heals the link, then closes the selectors, their clients and the proxy. */
async function closeBehindProxy(
  proxy: FaultProxy,
  selectors: readonly LeaderSelector[],
  clients: readonly FrameworkClient[],
): Promise<void> {
  proxy.heal();
  await closeAll(selectors);
  await closeAll(clients);
  await proxy.close();
}

describe('LeaderSelector under faults', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(() => server.close());

  it('server stopped (SUSPENDED): the leader’s signal aborts and the waiting participant’s attempt is cancelled too; after the restart exactly one leads', async () => {
    const path = uniquePath('faults');
    // Short sessions: a reconnect that lands while the server starts up can have its handshake
    // swallowed, and the client then waits the session timeout before it tries again (and
    // starts a new session). Either way both participants must queue again.
    const clients = [
      await connectedClient(server, { sessionTimeoutMs: 4000 }),
      await connectedClient(server, { sessionTimeoutMs: 4000 }),
    ];
    const witness = new LeaderWitness();
    const a = contender(clients[0]!, path, 'a', witness, { autoRequeue: true });
    const b = contender(clients[1]!, path, 'b', witness, { autoRequeue: true });
    try {
      await startInLine(a, b);
      const before = await nodesOf(clients[0]!, path);
      await server.stop();
      await waitFor(() => a.abortReasons.length === 1, { message: 'the leader’s signal aborts' });
      assert.ok(isConnectionLoss(a.abortReasons[0]), String(a.abortReasons[0]));
      assert.equal(a.selector.isLeader, false);
      await server.restart();
      // CURATOR-671: both attempts ended, the waiting one too; both queue with new nodes.
      const requeued = await waitFor(
        async () => {
          const nodes = await nodesOf(clients[0]!, path);
          return nodes.length === 2 && nodes.every((name) => !before.includes(name)) && nodes;
        },
        { timeoutMs: 20_000, message: 'both queued again with new nodes' },
      );
      assert.equal(requeued.length, 2);
      await waitFor(() => a.selector.isLeader !== b.selector.isLeader, {
        message: 'exactly one leads',
      });
      assert.deepEqual(witness.violations, []);
    } finally {
      await closeAll([a.selector, b.selector]);
      await closeAll(clients);
    }
  });

  it('error policy "session": SUSPENDED does not end leadership; the leader keeps its node across a dropped connection', async () => {
    const path = uniquePath('faults');
    const proxy = await FaultProxy.start({ targetPort: server.port });
    const client = await connectedClient(server, {
      connectString: proxy.connectString,
      errorPolicy: 'session',
      sessionTimeoutMs: 10_000,
    });
    const witness = new LeaderWitness();
    const a = contender(client, path, 'a', witness);
    try {
      await a.selector.start();
      await waitFor(() => a.selector.isLeader);
      const node = await nodesOf(client, path);
      const states: string[] = [];
      client.on('stateChanged', (state) => states.push(state));
      proxy.drop();
      await waitFor(() => states.includes(ConnectionState.SUSPENDED));
      proxy.heal();
      await waitFor(() => states.includes(ConnectionState.RECONNECTED));
      assert.deepEqual(states, [ConnectionState.SUSPENDED, ConnectionState.RECONNECTED]);
      assert.deepEqual(a.abortReasons, []);
      assert.equal(a.selector.isLeader, true);
      assert.deepEqual(await nodesOf(client, path), node);
    } finally {
      await closeBehindProxy(proxy, [a.selector], [client]);
    }
  });

  it('takeLeadership’s leadership: isValid() true while it runs, false as soon as its signal aborts on SUSPENDED, and after it returns', async () => {
    const path = uniquePath('faults');
    const proxy = await FaultProxy.start({ targetPort: server.port });
    const client = await connectedClient(server, { connectString: proxy.connectString });
    const seen: { valid: boolean; aheadMs: number; signalMatches: boolean }[] = [];
    let held: Leadership | undefined;
    const selector = new LeaderSelector(client, path, async (signal, leadership) => {
      held = leadership;
      const note = (): void => {
        seen.push({
          valid: leadership.isValid(),
          aheadMs: leadership.validUntil - performance.now(),
          signalMatches: leadership.signal === signal,
        });
      };
      note();
      await aborted(signal);
      note();
    });
    try {
      await selector.start();
      await waitFor(() => seen.length === 1, { message: 'takeLeadership runs' });
      assert.equal(held!.isValid(), true);
      proxy.drop();
      await waitFor(() => seen.length === 2, { message: 'the signal aborts' });
      const [leading, lost] = seen as [(typeof seen)[0], (typeof seen)[0]];
      assert.equal(leading.valid, true);
      assert.ok(leading.aheadMs > 0 && leading.aheadMs <= 20_000, `${leading.aheadMs} ms`);
      assert.equal(leading.signalMatches, true);
      assert.equal(lost.valid, false);
      assert.equal(lost.aheadMs, -Infinity);
      proxy.heal();
      await waitFor(() => client.isConnected);
      assert.equal(held!.isValid(), false, 'still false once connected again: it returned');
    } finally {
      await closeBehindProxy(proxy, [selector], [client]);
    }
  });

  it('session killed under error policy "session": the leader’s signal aborts with SESSION_EXPIRED, the successor leads, the old leader queues again', async () => {
    const path = uniquePath('faults');
    // A short session: if the server leaves the killed connection open (a ZooKeeper quirk),
    // the client's heartbeat gives up on it after 2/3 of this.
    const clients = [
      await connectedClient(server, { errorPolicy: 'session', sessionTimeoutMs: 4000 }),
      await connectedClient(server),
    ];
    const witness = new LeaderWitness();
    const a = contender(clients[0]!, path, 'a', witness, { autoRequeue: true });
    const b = contender(clients[1]!, path, 'b', witness, { autoRequeue: true });
    try {
      await startInLine(a, b);
      await killSession(clients[0]!, server.connectString);
      await waitFor(() => a.abortReasons.length === 1, {
        timeoutMs: 15_000,
        message: 'the leader’s signal aborts',
      });
      assert.ok(isSessionExpired(a.abortReasons[0]), String(a.abortReasons[0]));
      await waitFor(() => b.selector.isLeader, { message: 'b leads' });
      await waitFor(async () => (await ids(b.selector)).join() === 'b,a', {
        message: 'a queued again in its new session',
      });
    } finally {
      await closeAll([a.selector, b.selector]);
      await closeAll(clients);
    }
  });

  it('leader blackholed (FaultProxy): its signal aborts before any other participant’s takeLeadership starts', async () => {
    const path = uniquePath('faults');
    const proxy = await FaultProxy.start({ targetPort: server.port });
    const clients = [
      await connectedClient(server, { connectString: proxy.connectString, sessionTimeoutMs: 3000 }),
      await connectedClient(server),
    ];
    const witness = new LeaderWitness();
    const a = contender(clients[0]!, path, 'a', witness);
    const b = contender(clients[1]!, path, 'b', witness);
    let abortedAt = Number.POSITIVE_INFINITY;
    try {
      await a.selector.start();
      await waitFor(() => a.selector.isLeader);
      a.selector.leadershipStates.subscribe((leading) => {
        if (!leading) abortedAt = Math.min(abortedAt, performance.now());
      });
      await b.selector.start();
      await waitFor(async () => (await ids(b.selector)).length === 2);
      proxy.blackhole();
      await waitFor(() => b.selector.isLeader, {
        timeoutMs: 15_000,
        message: 'b leads once the server expired a',
      });
      assert.equal(a.abortReasons.length, 1);
      assert.ok(isConnectionLoss(a.abortReasons[0]), String(a.abortReasons[0]));
      assert.ok(
        abortedAt < b.entries[0]!,
        `a stopped ${(b.entries[0]! - abortedAt).toFixed(0)} ms before b started`,
      );
      assert.deepEqual(witness.violations, []);
    } finally {
      await closeBehindProxy(proxy, [a.selector, b.selector], clients);
    }
  });

  it('slow link (FaultProxy delay): close() of a participant waiting in line resolves once its node is gone', async () => {
    const path = uniquePath('faults');
    const proxy = await FaultProxy.start({ targetPort: server.port });
    const clients = [
      await connectedClient(server),
      await connectedClient(server, { connectString: proxy.connectString, sessionTimeoutMs: 6000 }),
    ];
    const witness = new LeaderWitness();
    const a = contender(clients[0]!, path, 'a', witness);
    const b = contender(clients[1]!, path, 'b', witness);
    try {
      await startInLine(a, b);
      proxy.delay(100);
      await b.selector.close();
      // Read on a's own (direct) connection: b's delete, sent through the slow link, must
      // have been applied before close() resolved.
      assert.deepEqual(await ids(a.selector), ['a'], 'b left the line');
      assert.equal(a.selector.isLeader, true);
      assert.deepEqual(witness.violations, []);
    } finally {
      await closeBehindProxy(proxy, [a.selector, b.selector], clients);
    }
  });

  it('the leader’s client closed: its signal aborts with a ClosedError and the successor leads; the selector stays idle until closed', async () => {
    const path = uniquePath('faults');
    const clients = [await connectedClient(server), await connectedClient(server)];
    const witness = new LeaderWitness();
    const a = contender(clients[0]!, path, 'a', witness, { autoRequeue: true });
    const b = contender(clients[1]!, path, 'b', witness, { autoRequeue: true });
    try {
      await startInLine(a, b);
      await clients[0]!.close();
      await waitFor(() => b.selector.isLeader, { message: 'b leads' });
      assert.ok(isClosed(a.abortReasons[0]), String(a.abortReasons[0]));
      assert.deepEqual(await ids(b.selector), ['b']);
      assert.equal(a.selector.state, 'STARTED');
      await a.selector.close();
      // No overlap check here: the server deletes a's node as it handles closeSession, and the
      // client tells its recipes it closed only once that request is answered, so b may start
      // a moment before a's signal aborts. Close the selector before its client.
      assert.deepEqual(witness.leaders, ['a', 'b']);
    } finally {
      await closeAll([a.selector, b.selector]);
      await closeAll(clients);
    }
  });

  it('the leader’s process killed (SIGKILL): the successor leads within the session timeout plus a margin, and the old leader’s node is gone', async () => {
    const path = uniquePath('faults');
    const sessionTimeoutMs = 2000;
    const child = spawn(
      process.execPath,
      [leaderProcess, server.connectString, path, 'child', String(sessionTimeoutMs)],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const lines: string[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const client = await connectedClient(server);
    const witness = new LeaderWitness();
    const b = contender(client, path, 'b', witness);
    try {
      await waitFor(() => lines.includes('LEADER'), { message: 'the child leads' });
      await b.selector.start();
      await waitFor(async () => (await ids(b.selector)).join() === 'child,b');
      const killedAt = performance.now();
      child.kill('SIGKILL');
      await exited;
      await waitFor(() => b.selector.isLeader, {
        timeoutMs: sessionTimeoutMs + 10_000,
        message: 'b leads',
      });
      const tookMs = b.entries[0]! - killedAt;
      assert.ok(
        tookMs < sessionTimeoutMs + timing.ms(2000),
        `successor after ${tookMs.toFixed(0)} ms (session timeout ${sessionTimeoutMs} ms)`,
      );
      assert.deepEqual(await b.selector.getParticipants(), [{ id: 'b', isLeader: true }]);
    } finally {
      child.kill('SIGKILL');
      await b.selector.close();
      await client.close();
    }
  });

  it('an attempt that keeps failing is queued again every second (autoRequeue); server stopped while that requeue waits: close() is prompt and nothing is queued after it', async () => {
    const path = uniquePath('requeue-failing');
    const clients = await Promise.all([0, 1].map(() => connectedClient(server)));
    const latch = new LeaderLatch(clients[0]!, path, { id: 'latch' });
    try {
      await latch.start();
      assert.equal(await latch.await({ timeoutMs: timing.ms(10_000) }), true);
      // A LeaderLatch's path: every attempt of the selector fails, deterministically.
      const selector = new LeaderSelector(clients[1]!, path, () => undefined, {
        autoRequeue: true,
      });
      const failures: number[] = [];
      selector.errors.subscribe((e) => {
        if (e.context === 'waiting for leadership') failures.push(performance.now());
      });
      await selector.start();
      await waitFor(() => failures.length >= 2, {
        timeoutMs: timing.ms(10_000),
        message: 'a second failed attempt',
      });
      const gap = failures[1]! - failures[0]!;
      assert.ok(gap >= 900, `queued again after ${gap.toFixed(0)} ms, not after the 1 s pause`);
      // The third attempt waits for its turn (about a second): stop the server meanwhile.
      await server.stop();
      try {
        const started = performance.now();
        await selector.close();
        const took = performance.now() - started;
        assert.ok(took < timing.ms(500), `close() took ${took.toFixed(0)} ms`);
        const seen = failures.length;
        await server.restart();
        await clients[1]!.blockUntilConnected({ timeoutMs: timing.ms(10_000) });
        // Longer than the pause: a requeue that survived close() would have run by now.
        await new Promise((resolve) => setTimeout(resolve, timing.ms(1_500)));
        assert.equal(failures.length, seen, 'an attempt ran after close()');
        assert.deepEqual(await ids(selector), [], 'the selector left a node behind');
      } finally {
        if (!server.running) await server.restart();
      }
    } finally {
      await latch.close();
      await closeAll(clients);
    }
  });
});
