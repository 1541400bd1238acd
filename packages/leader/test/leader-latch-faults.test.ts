import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConnectionState, type FrameworkClient } from '@zkrecipes/framework';
import { FaultProxy, killSession, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import { LeaderLatch } from '../src/leader-latch.js';

async function started(client: FrameworkClient, path: string, id: string): Promise<LeaderLatch> {
  const latch = new LeaderLatch(client, path, { id });
  await latch.start();
  await waitFor(() => latch.ourPath !== undefined, { message: `${id} has a node` });
  return latch;
}

/** Records the connection states a client goes through. */
function recordStates(client: FrameworkClient): { states: string[]; newSessions: number } {
  const record = { states: [] as string[], newSessions: 0 };
  client.on('stateChanged', (state, change) => {
    record.states.push(state);
    if (change.newSession) record.newSessions++;
  });
  return record;
}

/**
 * Fails on two latches leading at once, watching their streams synchronously; also records
 * the node each latch led through.
 */
function watchLeaders(latches: Record<string, LeaderLatch>): {
  violations: string[];
  ledThrough: Record<string, string[]>;
} {
  const leading = new Set<string>();
  const violations: string[] = [];
  const ledThrough: Record<string, string[]> = {};
  for (const [name, latch] of Object.entries(latches)) {
    ledThrough[name] = [];
    latch.leadershipStates.subscribe((leads) => {
      if (!leads) {
        leading.delete(name);
        return;
      }
      if (leading.size > 0) violations.push(`${name} leads while ${[...leading].join()} does`);
      leading.add(name);
      ledThrough[name]!.push(latch.ourPath ?? '');
    });
  }
  return { violations, ledThrough };
}

describe('LeaderLatch under faults', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(() => server.close());

  it('RECONNECTED with the same session (connection dropped and restored): leadership ends on SUSPENDED and comes back through the same node', async () => {
    const path = uniquePath('latch-faults');
    const proxy = await FaultProxy.start({ targetPort: server.port });
    const client = await connectedClient(server, {
      connectString: proxy.connectString,
      sessionTimeoutMs: 10_000,
    });
    const record = recordStates(client);
    const latch = await started(client, path, 'a');
    const values: boolean[] = [];
    try {
      assert.equal(await latch.await({ timeoutMs: 10_000 }), true);
      latch.leadershipStates.subscribe((leads) => values.push(leads));
      const node = latch.ourPath;
      proxy.drop();
      await waitFor(() => record.states.includes(ConnectionState.SUSPENDED));
      assert.equal(latch.isLeader, false, 'SUSPENDED ends leadership (error policy standard)');
      proxy.heal();
      await waitFor(() => record.states.includes(ConnectionState.RECONNECTED));
      assert.equal(await latch.await({ timeoutMs: 10_000 }), true);
      assert.equal(latch.ourPath, node, 'the same node');
      assert.equal(record.newSessions, 0);
      assert.deepEqual(values.slice(0, 3), [true, false, true], `states ${record.states.join()}`);
    } finally {
      proxy.heal();
      await latch.close();
      await client.close();
      await proxy.close();
    }
  });

  it('isValid()/validUntil: true while leading (at most 2/3 of the session timeout ahead); false on the first line after an event-loop stall (no event handled yet), while SUSPENDED (error policy standard) and once leadership moved on', async () => {
    const path = uniquePath('latch-faults');
    const proxy = await FaultProxy.start({ targetPort: server.port });
    const client = await connectedClient(server, {
      connectString: proxy.connectString,
      sessionTimeoutMs: 3000,
    });
    const other = await connectedClient(server);
    const a = await started(client, path, 'a');
    const b = await started(other, path, 'b');
    try {
      assert.equal(await a.await({ timeoutMs: 10_000 }), true);
      const now = performance.now();
      assert.equal(a.isValid(), true);
      assert.ok(a.validUntil > now && a.validUntil <= now + 2000, `${a.validUntil - now} ms`);
      assert.equal(b.isValid(), false);
      assert.equal(b.validUntil, -Infinity);
      // Longer than 2/3 of the session: what was heard before it no longer vouches for now.
      const stallEnd = performance.now() + 2100;
      while (performance.now() < stallEnd); // a synchronous stall: no timer, no event runs
      assert.equal(a.isLeader, true, 'no event has been handled yet');
      assert.equal(a.isValid(), false, 'invalid on the first line after the stall');
      await waitFor(() => a.isValid(), { message: 'valid again once the session is heard' });
      proxy.drop();
      await waitFor(() => !a.isLeader, { message: 'SUSPENDED ends leadership' });
      assert.equal(a.isValid(), false);
      assert.equal(a.validUntil, -Infinity);
      proxy.heal();
      assert.equal(await a.await({ timeoutMs: 10_000 }), true);
      assert.equal(a.isValid(), true);
      await other.delete(a.ourPath!);
      await waitFor(() => b.isLeader, { message: 'b leads' });
      assert.equal(a.isValid(), false);
      assert.equal(a.validUntil, -Infinity);
      assert.equal(b.isValid(), true);
    } finally {
      proxy.heal();
      await closeAll([a, b]);
      await closeAll([client, other]);
      await proxy.close();
    }
  });

  it('the answer that makes it first in line is handled after an event-loop stall past 2/3 of the session timeout: isLeader is not set on it; the latch looks again and leads, valid, in the same session', async () => {
    const path = uniquePath('latch-faults');
    const client = await connectedClient(server, { sessionTimeoutMs: 4000 });
    const other = await connectedClient(server);
    // Once armed, the next getData reply reaches the latch only after a 3 s synchronous stall:
    // what a process frozen with the reply in its socket does (the session lives 4 s).
    let stallNextRead = false;
    const stalling = new Proxy(client, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        const method = (value as (...args: unknown[]) => unknown).bind(target);
        if (property !== 'getData') return method;
        return async (...args: unknown[]) => {
          const reply = await method(...args);
          if (stallNextRead) {
            stallNextRead = false;
            const stallEnd = performance.now() + 3000;
            while (performance.now() < stallEnd); // the stall: no timer, no event runs
          }
          return reply;
        };
      },
    });
    const leader = await started(other, path, 'leader');
    const latch = await started(stalling, path, 'stalled');
    const grants: boolean[] = [];
    latch.leadershipStates.subscribe((leads) => {
      if (leads) grants.push(latch.isValid());
    });
    try {
      assert.equal(await leader.await({ timeoutMs: 10_000 }), true);
      const session = client.sessionId;
      const node = latch.ourPath;
      stallNextRead = true;
      await leader.close(); // the latch, first now, reads its own node: that reply stalls
      assert.equal(await latch.await({ timeoutMs: 10_000 }), true);
      assert.deepEqual(grants, [true], 'every grant valid when made');
      assert.equal(stallNextRead, false, 'the stall happened');
      assert.equal(client.sessionId, session);
      assert.equal(latch.ourPath, node, 'the same node');
    } finally {
      await closeAll([leader, latch]);
      await closeAll([client, other]);
    }
  });

  it('a new session (session killed) resets: a new node in the new session, the old one gone, the next in line leads meanwhile', async () => {
    const path = uniquePath('latch-faults');
    // A short session: if the server leaves the killed connection open (a ZooKeeper quirk),
    // the client's heartbeat gives up on it after 2/3 of this.
    const clients = [
      await connectedClient(server, { sessionTimeoutMs: 4000 }),
      await connectedClient(server),
    ];
    const record = recordStates(clients[0]!);
    const a = await started(clients[0]!, path, 'a');
    const b = await started(clients[1]!, path, 'b');
    try {
      assert.equal(await a.await({ timeoutMs: 10_000 }), true);
      const oldNode = a.ourPath!;
      await killSession(clients[0]!, server.connectString);
      assert.equal(await b.await({ timeoutMs: 10_000 }), true);
      await waitFor(() => record.newSessions === 1, {
        timeoutMs: 15_000,
        message: 'a new session',
      });
      await waitFor(() => a.ourPath !== undefined && a.ourPath !== oldNode, {
        message: 'a queued again',
      });
      assert.equal(a.isLeader, false);
      const { stat } = await clients[1]!.getData(a.ourPath!);
      assert.equal(stat.ephemeralOwner, clients[0]!.sessionId);
      assert.equal(await clients[1]!.exists(oldNode), null);
      assert.deepEqual(
        (await b.getParticipants()).map(({ id }) => id),
        ['b', 'a'],
      );
    } finally {
      await closeAll([a, b]);
      await closeAll(clients);
    }
  });

  it('the latch path deleted while disconnected (CURATOR-724): on RECONNECTED the latch makes it again and leads', async () => {
    const path = uniquePath('latch-faults');
    const proxy = await FaultProxy.start({ targetPort: server.port });
    const client = await connectedClient(server, {
      connectString: proxy.connectString,
      sessionTimeoutMs: 10_000,
    });
    const other = await connectedClient(server);
    const record = recordStates(client);
    const latch = await started(client, path, 'a');
    try {
      assert.equal(await latch.await({ timeoutMs: 10_000 }), true);
      proxy.drop();
      await waitFor(() => !latch.isLeader, { message: 'SUSPENDED ends leadership' });
      await other.delete(path, { deleteChildren: true });
      proxy.heal();
      assert.equal(await latch.await({ timeoutMs: 15_000 }), true);
      assert.equal(record.newSessions, 0, 'the session survived');
      assert.deepEqual((await other.getChildren(path)).length, 1);
      assert.equal((await other.getData(latch.ourPath!)).stat.ephemeralOwner, client.sessionId);
    } finally {
      proxy.heal();
      await latch.close();
      await closeAll([client, other]);
      await proxy.close();
    }
  });

  it('CURATOR-696: after a simulated session loss, the latch never leads through its old session’s node, though the server still has it', async () => {
    const path = uniquePath('latch-faults');
    const proxy = await FaultProxy.start({ targetPort: server.port });
    // LOST 400 ms into SUSPENDED, long before the server expires the 4 s session.
    const client = await connectedClient(server, {
      connectString: proxy.connectString,
      sessionTimeoutMs: 4000,
      sessionExpirationPercent: 10,
    });
    const other = await connectedClient(server);
    const record = recordStates(client);
    const a = await started(client, path, 'a');
    const b = await started(other, path, 'b');
    const watch = watchLeaders({ a, b });
    try {
      assert.equal(await a.await({ timeoutMs: 10_000 }), true);
      const staleNode = a.ourPath!;
      const oldSession = client.sessionId;
      proxy.drop();
      await waitFor(() => record.states.includes(ConnectionState.LOST), {
        message: 'the simulated LOST',
      });
      // The server has not expired the old session: its node still heads the line.
      const stale = await other.exists(staleNode);
      assert.equal(stale?.ephemeralOwner, oldSession);
      proxy.heal();
      await waitFor(() => record.newSessions === 1, { message: 'a new session' });
      assert.equal(await b.await({ timeoutMs: 10_000 }), true, 'b leads once a gave up its node');
      await waitFor(() => a.ourPath !== undefined && a.ourPath !== staleNode);
      assert.equal(a.isLeader, false);
      assert.deepEqual(watch.ledThrough.a, [staleNode], 'a led only before the loss');
      assert.deepEqual(watch.violations, []);
      assert.equal((await other.getData(a.ourPath!)).stat.ephemeralOwner, client.sessionId);
    } finally {
      proxy.heal();
      await closeAll([a, b]);
      await closeAll([client, other]);
      await proxy.close();
    }
  });

  it('CURATOR-696: a node under our name owned by another session is not ours: the latch queues again instead of leading through it', async () => {
    const path = uniquePath('latch-faults');
    const proxy = await FaultProxy.start({ targetPort: server.port });
    const client = await connectedClient(server, {
      connectString: proxy.connectString,
      sessionTimeoutMs: 10_000,
    });
    const other = await connectedClient(server);
    const record = recordStates(client);
    const a = await started(client, path, 'a');
    const watch = watchLeaders({ a });
    try {
      assert.equal(await a.await({ timeoutMs: 10_000 }), true);
      const node = a.ourPath!;
      proxy.drop();
      await waitFor(() => !a.isLeader, { message: 'SUSPENDED ends leadership' });
      // While a is cut off, another session takes over a's node name.
      await other.delete(node);
      await other.create(node, { mode: 'EPHEMERAL', data: Buffer.from('impostor') });
      proxy.heal();
      await waitFor(() => record.states.includes(ConnectionState.RECONNECTED));
      assert.equal(await a.await({ timeoutMs: 10_000 }), true);
      assert.equal(record.newSessions, 0, 'the same session throughout');
      assert.notEqual(a.ourPath, node);
      assert.deepEqual(watch.ledThrough.a, [node, a.ourPath], 'never through the impostor');
      assert.equal((await other.getData(a.ourPath!)).stat.ephemeralOwner, client.sessionId);
    } finally {
      proxy.heal();
      await a.close();
      await closeAll([client, other]);
      await proxy.close();
    }
  });
});
