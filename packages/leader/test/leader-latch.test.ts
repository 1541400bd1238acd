import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { firstValueFrom, toArray } from 'rxjs';
import {
  ClosedError,
  IllegalStateError,
  InvalidArgumentError,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import { LeaderLatch } from '../src/leader-latch.js';
import { LeaderSelector } from '../src/leader-selector.js';
import { aborted } from './helpers.js';

async function started(
  client: FrameworkClient,
  path: string,
  id: string,
  options: { notifyLeaderOnClose?: boolean } = {},
): Promise<LeaderLatch> {
  const latch = new LeaderLatch(client, path, { id, ...options });
  await latch.start();
  await waitFor(() => latch.ourPath !== undefined, { message: `${id} has a node` });
  return latch;
}

describe('LeaderLatch', () => {
  let server: TestingServer;
  const clients: FrameworkClient[] = [];
  before(async () => {
    server = await TestingServer.start();
    for (let i = 0; i < 3; i++) clients.push(await connectedClient(server));
  });
  after(async () => {
    await closeAll(clients);
    await server.close();
  });

  it('the first to start leads; the others wait in line; participants and leader agree with Curator’s layout', async () => {
    const path = uniquePath('latch');
    const a = await started(clients[0]!, path, 'a');
    const b = await started(clients[1]!, path, 'b');
    const c = await started(clients[2]!, path, 'c');
    try {
      assert.equal(await a.await({ timeoutMs: 10_000 }), true);
      assert.equal(a.isLeader, true);
      assert.equal(a.lastPathIsLeader, a.ourPath);
      assert.equal(b.isLeader, false);
      assert.deepEqual(await c.getParticipants(), [
        { id: 'a', isLeader: true },
        { id: 'b', isLeader: false },
        { id: 'c', isLeader: false },
      ]);
      assert.deepEqual(await b.getLeader(), { id: 'a', isLeader: true });
      const children = await clients[0]!.getChildren(path);
      for (const child of children) assert.match(child, /^_c_[0-9a-f-]{36}-latch-\d{10}$/);
      const { data, stat } = await clients[0]!.getData(a.ourPath!);
      assert.equal(data.toString('utf8'), 'a');
      assert.equal(stat.ephemeralOwner, clients[0]!.sessionId);
    } finally {
      await closeAll([a, b, c]);
    }
    assert.deepEqual(await clients[0]!.getChildren(path), [], 'close() removes every node');
  });

  it('closing the leader hands leadership to the next in line, who is told by isLeader and the stream', async () => {
    const path = uniquePath('latch');
    const a = await started(clients[0]!, path, 'a');
    const b = await started(clients[1]!, path, 'b');
    const events: string[] = [];
    b.on('isLeader', () => events.push('isLeader'));
    const values = firstValueFrom(b.leadershipStates.pipe(toArray()));
    try {
      assert.equal(await a.await({ timeoutMs: 10_000 }), true);
      await a.close();
      assert.equal(a.isLeader, false);
      assert.equal(await b.await({ timeoutMs: 10_000 }), true);
      await waitFor(() => events.length === 1);
      assert.deepEqual(events, ['isLeader']);
    } finally {
      await closeAll([a, b]);
    }
    assert.deepEqual(await values, [false, true, false]);
  });

  it('await(): false after timeoutMs, false at once with 0, true at once when leading, rejects with the signal’s reason, ClosedError when the latch closes or is closed, IllegalStateError before start()', async () => {
    const path = uniquePath('latch');
    const a = await started(clients[0]!, path, 'a');
    const b = await started(clients[1]!, path, 'b');
    try {
      assert.equal(await a.await(), true);
      assert.equal(await a.await({ timeoutMs: 0 }), true);
      assert.equal(await b.await({ timeoutMs: 0 }), false);
      const startedAt = performance.now();
      assert.equal(await b.await({ timeoutMs: 150 }), false);
      assert.ok(performance.now() - startedAt >= 140);
      const controller = new AbortController();
      const waiting = b.await({ signal: controller.signal });
      controller.abort(new Error('stop waiting'));
      await assert.rejects(waiting, /stop waiting/);
      await assert.rejects(b.await({ signal: AbortSignal.abort(new Error('already')) }), /already/);
      const untilClosed = b.await();
      await b.close();
      await assert.rejects(untilClosed, ClosedError);
      await assert.rejects(b.await(), ClosedError);
      await assert.rejects(b.await({ timeoutMs: 0 }), ClosedError);
      const latent = new LeaderLatch(clients[2]!, path);
      await assert.rejects(latent.await(), IllegalStateError);
      await assert.rejects(b.await({ timeoutMs: -1 }), InvalidArgumentError);
    } finally {
      await closeAll([a, b]);
    }
  });

  it('close(): silent by default; { notifyLeader: true } and notifyLeaderOnClose call notLeader', async () => {
    const path = uniquePath('latch');
    const cases = [
      { options: {}, close: {}, expect: [] },
      { options: {}, close: { notifyLeader: true }, expect: ['notLeader'] },
      { options: { notifyLeaderOnClose: true }, close: {}, expect: ['notLeader'] },
      { options: { notifyLeaderOnClose: true }, close: { notifyLeader: false }, expect: [] },
    ];
    for (const [i, testCase] of cases.entries()) {
      const latch = await started(clients[0]!, `${path}-${i}`, 'a', testCase.options);
      assert.equal(await latch.await({ timeoutMs: 10_000 }), true);
      const events: string[] = [];
      latch.on('notLeader', () => events.push('notLeader'));
      const values = firstValueFrom(latch.leadershipStates.pipe(toArray()));
      await latch.close(testCase.close);
      // Listeners run from microtasks: let them run before looking.
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(events, testCase.expect, `case ${i}`);
      assert.deepEqual(await values, [true, false], 'the stream always ends on false');
      assert.equal(latch.state, 'CLOSED');
    }
  });

  it('the leader’s node deleted by someone else: it notices at once (its own watch) and queues again', async () => {
    const path = uniquePath('latch');
    const a = await started(clients[0]!, path, 'a');
    const b = await started(clients[1]!, path, 'b');
    try {
      assert.equal(await a.await({ timeoutMs: 10_000 }), true);
      const first = a.ourPath!;
      await clients[2]!.delete(first);
      await waitFor(() => b.isLeader, { message: 'b leads' });
      await waitFor(() => a.ourPath !== undefined && a.ourPath !== first, {
        message: 'a queued again',
      });
      assert.equal(a.isLeader, false);
      assert.deepEqual(
        (await b.getParticipants()).map(({ id }) => id),
        ['b', 'a'],
      );
    } finally {
      await closeAll([a, b]);
    }
  });

  it('await() rejects with ClosedError when the client closes under it, and at once when called after that; leadership ends with the client', async () => {
    const path = uniquePath('latch');
    const own = [await connectedClient(server), await connectedClient(server)];
    const a = await started(own[0]!, path, 'a');
    const b = await started(own[1]!, path, 'b');
    try {
      assert.equal(await a.await({ timeoutMs: 10_000 }), true);
      // They reject as the client's close begins, before close() resolves.
      const waiting = assert.rejects(b.await(), ClosedError);
      const waitingWithTimeout = assert.rejects(b.await({ timeoutMs: 60_000 }), ClosedError);
      await own[1]!.close();
      await waiting;
      await waitingWithTimeout;
      await assert.rejects(b.await({ timeoutMs: 1000 }), ClosedError);
      assert.equal(a.isValid(), true);
      await own[0]!.close();
      assert.equal(a.isLeader, false);
      assert.equal(a.isValid(), false);
      assert.equal(a.validUntil, -Infinity);
      await assert.rejects(a.await(), ClosedError);
    } finally {
      await closeAll([a, b]);
      await closeAll(own);
    }
  });

  it('lifecycle and arguments: start() twice rejects, close() twice is a no-op, bad input fails fast, foreign nodes are ignored', async () => {
    const path = uniquePath('latch');
    // A LeaderSelector's nodes on the same path are not latch participants.
    const selector = new LeaderSelector(clients[1]!, path, (signal) => aborted(signal));
    await selector.start();
    await waitFor(() => selector.isLeader);
    assert.throws(() => new LeaderLatch(clients[0]!, 'relative'));
    assert.throws(() => new LeaderLatch(clients[0]!, path, { id: 1 as never }), /id must be/);
    assert.throws(() => new LeaderLatch(clients[0]!, path, null as never), /options must be/);
    const latch = new LeaderLatch(clients[0]!, path);
    assert.equal(latch.state, 'LATENT');
    assert.equal(latch.isLeader, false);
    await latch.start();
    await assert.rejects(latch.start(), IllegalStateError);
    assert.equal(await latch.await({ timeoutMs: 10_000 }), true);
    await clients[1]!.create(`${path}/not-a-latch-node`);
    assert.equal((await clients[1]!.getChildren(path)).length, 3);
    assert.deepEqual(await latch.getParticipants(), [{ id: '', isLeader: true }]);
    await latch[Symbol.asyncDispose]();
    await latch.close();
    assert.equal(latch.state, 'CLOSED');
    await assert.rejects(latch.start(), IllegalStateError);
    await selector.close();
  });
});
