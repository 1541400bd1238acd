import assert from 'node:assert/strict';
import { setTimeout as jitter } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import {
  isClosed,
  isInvalidArgument,
  isSessionExpired,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { FaultProxy, killSession, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { connect, percentile } from '@zkrecipes/test-support';
import { DistributedDoubleBarrier } from '../src/index.js';

interface RoundResult {
  readonly violations: string[];
  readonly roundMs: number;
}

/**
 * One round: every member calls enter() then leave() on a fresh barrier object. A member that
 * returns from enter() before `quorum` members have called it, or from leave() before every
 * member has called it, is a violation. A little jitter spreads the calls out.
 */
async function round(
  clients: readonly FrameworkClient[],
  path: string,
  quorum: number,
  label: string,
): Promise<RoundResult> {
  const violations: string[] = [];
  let entering = 0;
  let leaving = 0;
  const started = performance.now();
  await Promise.all(
    clients.map(async (client, i) => {
      const barrier = new DistributedDoubleBarrier(client, path, quorum);
      await jitter(Math.random() * 3);
      entering += 1;
      assert.equal(await barrier.enter({ timeoutMs: 20_000 }), true);
      if (entering < quorum) violations.push(`${label}: member ${i} entered with ${entering} in`);
      await jitter(Math.random() * 3);
      leaving += 1;
      assert.equal(await barrier.leave({ timeoutMs: 20_000 }), true);
      if (leaving < clients.length) {
        violations.push(`${label}: member ${i} left with ${leaving}/${clients.length} leaving`);
      }
    }),
  );
  return { violations, roundMs: performance.now() - started };
}

describe('DistributedDoubleBarrier', () => {
  let server: TestingServer;
  let clients: FrameworkClient[] = [];
  before(async () => {
    server = await TestingServer.start();
    clients = await Promise.all(Array.from({ length: 6 }, () => connect(server.connectString)));
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server.close();
  });

  it('5 members on separate clients, 20 rounds: nobody leaves enter() or leave() early', async (t) => {
    const path = uniquePath('double');
    const members = clients.slice(0, 5);
    const violations: string[] = [];
    const times: number[] = [];
    for (let r = 0; r < 20; r += 1) {
      const result = await round(members, path, 5, `round ${r}`);
      violations.push(...result.violations);
      times.push(result.roundMs);
    }
    assert.deepEqual(violations, []);
    // Every node is gone after the last leave: the path can be reused.
    assert.deepEqual(await clients[0]!.getChildren(path), []);
    t.diagnostic(`round p50 ${percentile(times, 50).toFixed(2)} ms (jitter included)`);
  });

  it('leave(): the lowest member deletes `ready` before its own node, so the others return without deleting it; `ready` is gone once any leave() returned', async () => {
    const path = uniquePath('double');
    const members = clients.slice(0, 4);
    const readyDeletes: number[] = [];
    const readyLeftAtReturn: boolean[] = [];
    members.forEach((client, i) => {
      const remove = client.delete.bind(client);
      Object.assign(client, {
        delete: (...args: Parameters<typeof remove>) => {
          if (args[0] === `${path}/ready`) readyDeletes.push(i);
          return remove(...args);
        },
      });
    });
    try {
      for (let r = 0; r < 3; r += 1) {
        readyDeletes.length = 0;
        await Promise.all(
          members.map(async (client) => {
            const barrier = new DistributedDoubleBarrier(client, path, members.length);
            assert.equal(await barrier.enter({ timeoutMs: 20_000 }), true);
            assert.equal(await barrier.leave({ timeoutMs: 20_000 }), true);
            readyLeftAtReturn.push((await clients[5]!.exists(`${path}/ready`)) !== null);
          }),
        );
        assert.equal(readyDeletes.length, 1, `round ${r}: only the lowest deletes ready`);
      }
      assert.deepEqual(
        readyLeftAtReturn.filter((left) => left),
        [],
        '`ready` never outlives a leave()',
      );
      assert.deepEqual(await clients[5]!.getChildren(path), []);
    } finally {
      for (const client of members) delete (client as { delete?: unknown }).delete;
    }
  });

  it('6 members for a quorum of 5 all enter and leave, none before 5 are in', async () => {
    const path = uniquePath('double');
    for (let r = 0; r < 5; r += 1) {
      const result = await round(clients, path, 5, `round ${r}`);
      assert.deepEqual(result.violations, []);
    }
    assert.deepEqual(await clients[0]!.getChildren(path), []);
  });

  it('enter() that times out resolves false and takes its node back', async () => {
    const path = uniquePath('double');
    const barrier = new DistributedDoubleBarrier(clients[0]!, path, 2);
    assert.equal(await barrier.enter({ timeoutMs: 150 }), false);
    assert.equal(barrier.phase, 'IDLE');
    assert.deepEqual(await clients[0]!.getChildren(path), []);
    // The same object can try again, and a second member completes it.
    const again = barrier.enter({ timeoutMs: 10_000 });
    const second = new DistributedDoubleBarrier(clients[1]!, path, 2);
    assert.deepEqual(await Promise.all([again, second.enter()]), [true, true]);
    assert.deepEqual(await Promise.all([barrier.leave(), second.leave()]), [true, true]);
  });

  it('an aborted enter() rejects with the reason and is not counted', async () => {
    const path = uniquePath('double');
    const controller = new AbortController();
    const barrier = new DistributedDoubleBarrier(clients[0]!, path, 2);
    const entering = assert.rejects(barrier.enter({ signal: controller.signal }), /give up/);
    await waitFor(async () => (await clients[1]!.getChildren(path)).length === 1, {
      message: 'the member node',
    });
    controller.abort(new Error('give up'));
    await entering;
    assert.deepEqual(await clients[0]!.getChildren(path), []);
  });

  it('leave() that times out or is aborted leaves the member in; calling it again finishes', async () => {
    const path = uniquePath('double');
    const a = new DistributedDoubleBarrier(clients[0]!, path, 2);
    const b = new DistributedDoubleBarrier(clients[1]!, path, 2);
    await Promise.all([a.enter(), b.enter()]);
    assert.equal(await a.leave({ timeoutMs: 150 }), false);
    assert.equal(a.phase, 'ENTERED');
    await assert.rejects(a.leave({ signal: AbortSignal.timeout(100) }), /TimeoutError|aborted/);
    assert.equal(a.phase, 'ENTERED');
    assert.deepEqual(await Promise.all([a.leave(), b.leave()]), [true, true]);
    assert.deepEqual(await clients[0]!.getChildren(path), []);
  });

  it('a dropped connection does not release a waiting member (no spurious enter)', async () => {
    const path = uniquePath('double');
    const proxy = await FaultProxy.start({ targetPort: server.port });
    const proxied = await connect(proxy.connectString, { sessionTimeoutMs: 10_000 });
    try {
      const states: string[] = [];
      const subscription = proxied.connectionStates.subscribe((state) => states.push(state));
      let settled = false;
      const first = new DistributedDoubleBarrier(proxied, path, 2);
      const waiting = first.enter().finally(() => (settled = true));
      await waitFor(async () => (await clients[0]!.getChildren(path)).length === 1, {
        message: 'the proxied member node',
      });
      proxy.drop();
      await waitFor(() => states.includes('SUSPENDED'), { message: 'SUSPENDED' });
      proxy.heal();
      await waitFor(() => states.includes('RECONNECTED'), { message: 'RECONNECTED' });
      await proxied.exists(path);
      assert.equal(settled, false);
      const second = new DistributedDoubleBarrier(clients[0]!, path, 2);
      assert.deepEqual(await Promise.all([waiting, second.enter()]), [true, true]);
      assert.deepEqual(await Promise.all([first.leave(), second.leave()]), [true, true]);
      subscription.unsubscribe();
    } finally {
      await proxied.close();
      await proxy.close();
    }
  });

  it('rejects with SessionExpiredError when the session ends while waiting in enter()', async () => {
    const path = uniquePath('double');
    // Short session: see the note in distributed-barrier.test.ts about killSession races.
    const victim = await connect(server.connectString, { sessionTimeoutMs: 4000 });
    try {
      const entering = assert.rejects(
        new DistributedDoubleBarrier(victim, path, 2).enter(),
        isSessionExpired,
      );
      await waitFor(async () => (await clients[0]!.getChildren(path)).length === 1, {
        message: 'the member node',
      });
      await killSession(victim, server.connectString);
      await entering;
      assert.deepEqual(await clients[0]!.getChildren(path), []);
    } finally {
      await victim.close();
    }
  });

  it('rejects a wait with ClosedError when its client closes', async () => {
    const path = uniquePath('double');
    const closing = await connect(server.connectString);
    const entering = assert.rejects(
      new DistributedDoubleBarrier(closing, path, 2).enter(),
      isClosed,
    );
    await waitFor(async () => (await clients[0]!.getChildren(path)).length === 1, {
      message: 'the member node',
    });
    await closing.close();
    await entering;
  });

  it('checks its arguments and its phase before sending anything', async () => {
    const path = uniquePath('double');
    for (const qty of [0, -1, 1.5, Number.NaN]) {
      assert.throws(() => new DistributedDoubleBarrier(clients[0]!, path, qty), /memberQty/);
    }
    assert.throws(
      () => new DistributedDoubleBarrier(clients[0]!, 'no-slash', 1),
      isInvalidArgument,
    );
    const barrier = new DistributedDoubleBarrier(clients[0]!, path, 1);
    await assert.rejects(barrier.leave(), /leave\(\) while IDLE/);
    await assert.rejects(barrier.enter({ timeoutMs: Number.NaN }), isInvalidArgument);
    assert.equal(await barrier.enter(), true);
    await assert.rejects(barrier.enter(), /enter\(\) while ENTERED/);
    assert.equal(await barrier.leave(), true);
    assert.equal(barrier.phase, 'IDLE');
  });
});
