import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { firstValueFrom, filter, toArray } from 'rxjs';
import { IllegalStateError, isClosed, type FrameworkClient } from '@zkrecipes/framework';
import { closeAll, connectedClient, percentile } from '@zkrecipes/test-support';
import { LeaderLatch } from '../src/leader-latch.js';
import { LeaderSelector } from '../src/leader-selector.js';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { contender, ids, LeaderWitness, startInLine } from './helpers.js';

describe('LeaderSelector', () => {
  let server: TestingServer;
  const clients: FrameworkClient[] = [];
  before(async () => {
    server = await TestingServer.start();
    for (let i = 0; i < 5; i++) clients.push(await connectedClient(server));
  });
  after(async () => {
    await closeAll(clients);
    await server.close();
  });

  it('elects the first in line; participants list ids in line order, the leader first', async () => {
    const path = uniquePath('selector');
    const witness = new LeaderWitness();
    const all = ['a', 'b', 'c'].map((id, i) => contender(clients[i]!, path, id, witness));
    try {
      for (const { selector } of all) {
        await selector.start();
        await waitFor(async () => (await ids(selector)).includes(selector.id));
      }
      await waitFor(() => all[0]!.selector.isLeader, { message: 'a leads' });
      assert.deepEqual(await all[2]!.selector.getParticipants(), [
        { id: 'a', isLeader: true },
        { id: 'b', isLeader: false },
        { id: 'c', isLeader: false },
      ]);
      assert.deepEqual(await all[1]!.selector.getLeader(), { id: 'a', isLeader: true });
      assert.equal(all[1]!.selector.isLeader, false);
      // Node layout: Curator's protected lock nodes, the id as data.
      const children = await clients[0]!.getChildren(path);
      assert.equal(children.length, 3);
      for (const child of children) assert.match(child, /^_c_[0-9a-f-]{36}-lock-\d{10}$/);
      assert.deepEqual(witness.violations, []);
    } finally {
      await closeAll(all.map(({ selector }) => selector));
    }
    assert.deepEqual(await clients[0]!.getChildren(path), [], 'close() removes every node');
  });

  it('an observer that never starts reads participants and leader; none is undefined', async () => {
    const path = uniquePath('selector');
    const observer = new LeaderSelector(clients[4]!, path, () => undefined);
    assert.deepEqual(await observer.getParticipants(), []);
    assert.equal(await observer.getLeader(), undefined);
    const witness = new LeaderWitness();
    const one = contender(clients[0]!, path, 'one', witness);
    await one.selector.start();
    await waitFor(() => one.selector.isLeader);
    assert.deepEqual(await observer.getLeader(), { id: 'one', isLeader: true });
    await one.selector.close();
    await observer.close();
    assert.equal(observer.state, 'CLOSED');
  });

  it('5 participants, 30 rounds of relinquish with autoRequeue: one leader at any instant, leadership moves every round, never back to the one who gave it up', async (t) => {
    const path = uniquePath('selector');
    const witness = new LeaderWitness();
    const all = clients.map((client, i) =>
      contender(client, path, `p${i}`, witness, { autoRequeue: true }),
    );
    const samples: number[] = [];
    try {
      await Promise.all(all.map(({ selector }) => selector.start()));
      for (let round = 0; round < 30; round++) {
        await waitFor(async () => (await all[0]!.selector.getParticipants()).length === 5, {
          intervalMs: 2,
          message: 'all 5 queued',
        });
        const leader = await waitFor(() => all.find(({ selector }) => selector.isLeader));
        const successorsBefore = all.map(({ entries }) => entries.length);
        const startedAt = performance.now();
        leader.release();
        const successor = await waitFor(
          () => all.find(({ entries }, i) => entries.length > successorsBefore[i]!),
          { intervalMs: 2, message: `a successor in round ${round}` },
        );
        assert.notEqual(successor, leader, 'leadership never goes back to the one who gave it up');
        samples.push(successor.entries.at(-1)! - startedAt);
      }
      assert.deepEqual(witness.violations, []);
      assert.equal(witness.leaders.length, 31);
      for (let i = 1; i < witness.leaders.length; i++) {
        assert.notEqual(witness.leaders[i], witness.leaders[i - 1]);
      }
      t.diagnostic(
        `relinquish -> successor's takeLeadership: p50 ${percentile(samples, 50).toFixed(3)} ms, ` +
          `p99 ${percentile(samples, 99).toFixed(3)} ms (n=${samples.length})`,
      );
    } finally {
      await closeAll(all.map(({ selector }) => selector));
    }
  });

  it('a new leader rewrites its node’s data with the same id: the participant behind it looks again while it leads, and later takes over without reading the children', async () => {
    const path = uniquePath('selector');
    const witness = new LeaderWitness();
    const [a, b, c] = ['a', 'b', 'c'].map((id, i) => contender(clients[i]!, path, id, witness));
    // Counts c's children reads (the lock loop reads through the client's method).
    const cClient = clients[2]!;
    let cReads = 0;
    const getChildren = cClient.getChildren.bind(cClient);
    Object.assign(cClient, {
      getChildren: (...args: Parameters<typeof getChildren>) => {
        cReads += 1;
        return getChildren(...args);
      },
    });
    try {
      for (const { selector } of [a!, b!, c!]) {
        await selector.start();
        await waitFor(async () => (await ids(selector)).includes(selector.id));
      }
      await waitFor(() => a!.selector.isLeader, { message: 'a leads' });
      // c's last look is [a, b, c]: when b goes, a may still be ahead of it, unless it looks
      // again in between. b's announcement is what makes it look again.
      const readsBeforeB = cReads;
      a!.release();
      await waitFor(() => b!.selector.isLeader, { message: 'b leads' });
      await waitFor(() => cReads > readsBeforeB, { message: 'c looks again while b leads' });
      const nodes = await clients[3]!.getChildren(path);
      const layout = await Promise.all(
        nodes.map(async (node) => {
          const { data, stat } = await clients[3]!.getData(`${path}/${node}`);
          return `${Buffer.from(data).toString('utf8')}@${stat.version}`;
        }),
      );
      assert.deepEqual(
        layout.sort(),
        ['b@1', 'c@0'],
        'the leader’s data is its id, rewritten once',
      );
      const readsBeforeHandOver = cReads;
      b!.release();
      await waitFor(() => c!.selector.isLeader, { message: 'c leads' });
      assert.equal(cReads, readsBeforeHandOver, 'c took over on the deletion alone');
      assert.deepEqual(witness.leaders, ['a', 'b', 'c']);
      assert.deepEqual(witness.violations, []);
    } finally {
      delete (cClient as { getChildren?: unknown }).getChildren;
      await closeAll([a!.selector, b!.selector, c!.selector]);
    }
  });

  it('without autoRequeue an attempt ends with takeLeadership; requeue() queues again and is false while queued', async () => {
    const path = uniquePath('selector');
    const witness = new LeaderWitness();
    const a = contender(clients[0]!, path, 'a', witness);
    const b = contender(clients[1]!, path, 'b', witness);
    try {
      await startInLine(a, b);
      a.release();
      await waitFor(() => b.selector.isLeader, { message: 'b leads' });
      assert.deepEqual(await ids(a.selector), ['b'], 'a left the line');
      assert.equal(a.selector.requeue(), true);
      assert.equal(a.selector.requeue(), false, 'already queued');
      await waitFor(async () => (await ids(a.selector)).join() === 'b,a');
      b.release();
      await waitFor(() => a.selector.isLeader, { message: 'a leads again' });
      assert.deepEqual(witness.leaders, ['a', 'b', 'a']);
      assert.deepEqual(witness.violations, []);
    } finally {
      await closeAll([a.selector, b.selector]);
    }
  });

  it('interruptLeadership() aborts the signal; with autoRequeue the leader queues again at the end', async () => {
    const path = uniquePath('selector');
    const witness = new LeaderWitness();
    const a = contender(clients[0]!, path, 'a', witness, { autoRequeue: true });
    const b = contender(clients[1]!, path, 'b', witness, { autoRequeue: true });
    try {
      await startInLine(a, b);
      b.selector.interruptLeadership(); // not the leader: nothing happens
      a.selector.interruptLeadership();
      await waitFor(() => b.selector.isLeader, { message: 'b leads' });
      assert.equal(a.abortReasons.length, 1);
      assert.equal((a.abortReasons[0] as Error).name, 'AbortError');
      assert.equal(b.abortReasons.length, 0);
      await waitFor(async () => (await ids(b.selector)).join() === 'b,a', {
        message: 'a queued behind b',
      });
      assert.deepEqual(witness.violations, []);
    } finally {
      await closeAll([a.selector, b.selector]);
    }
  });

  it('a leader that ignores its signal keeps leadership until it returns: never two leaders', async () => {
    const path = uniquePath('selector');
    const witness = new LeaderWitness();
    const a = contender(clients[0]!, path, 'a', witness, { ignoreSignal: true, autoRequeue: true });
    const b = contender(clients[1]!, path, 'b', witness);
    try {
      await startInLine(a, b);
      a.selector.interruptLeadership();
      await waitFor(() => a.abortReasons.length === 1);
      // A few round trips later a still leads and b still waits behind it.
      assert.deepEqual(await b.selector.getParticipants(), [
        { id: 'a', isLeader: true },
        { id: 'b', isLeader: false },
      ]);
      assert.equal(a.selector.requeue(), false, 'the attempt is still under way');
      assert.equal(b.selector.isLeader, false);
      assert.equal(a.selector.isLeader, true);
      a.release();
      await waitFor(() => b.selector.isLeader);
      assert.deepEqual(witness.violations, []);
    } finally {
      await closeAll([a.selector, b.selector]);
    }
  });

  it('close() while leading aborts the signal, waits for takeLeadership and hands over; close() while waiting leaves the line', async () => {
    const path = uniquePath('selector');
    const witness = new LeaderWitness();
    const [a, b, c] = ['a', 'b', 'c'].map((id, i) => contender(clients[i]!, path, id, witness));
    try {
      for (const { selector } of [a!, b!, c!]) {
        await selector.start();
        await waitFor(async () => (await ids(selector)).includes(selector.id));
      }
      await c!.selector.close();
      assert.deepEqual(await ids(a!.selector), ['a', 'b'], 'c left the line');
      assert.equal(a!.selector.isLeader, true);
      await a!.selector.close();
      assert.equal(a!.abortReasons.length, 1);
      assert.ok(isClosed(a!.abortReasons[0]), 'the reason is a ClosedError');
      assert.equal(witness.current === 'a', false, 'takeLeadership returned before close() did');
      assert.equal(a!.selector.isLeader, false);
      await waitFor(() => b!.selector.isLeader);
      assert.deepEqual(await ids(b!.selector), ['b']);
      await a!.selector.close(); // twice: no-op
      assert.equal(a!.selector.state, 'CLOSED');
      assert.throws(() => a!.selector.requeue(), IllegalStateError);
      assert.deepEqual(witness.violations, []);
    } finally {
      await closeAll([a!.selector, b!.selector, c!.selector]);
    }
  });

  it('close() from inside takeLeadership does not wait for itself; the node goes once takeLeadership returns', async () => {
    const path = uniquePath('selector');
    let closedInside = false;
    const selector: LeaderSelector = new LeaderSelector(clients[0]!, path, async (signal) => {
      await selector.close();
      closedInside = signal.aborted;
    });
    await selector.start();
    await waitFor(() => selector.state === 'CLOSED' && closedInside, { message: 'closed inside' });
    await waitFor(async () => (await clients[0]!.getChildren(path)).length === 0, {
      message: 'the node deleted',
    });
    assert.equal(selector.isLeader, false);
  });

  it('streams and listeners: leadership replays, isLeader/notLeader are called, a throwing takeLeadership is reported (on errors and client.unhandledErrors) and the node released', async () => {
    const path = uniquePath('selector');
    let calls = 0;
    const selector = new LeaderSelector(
      clients[0]!,
      path,
      {
        takeLeadership: () => {
          calls++;
          throw new Error('leader failed');
        },
      },
      { id: 'thrower' },
    );
    const events: string[] = [];
    selector.on('isLeader', () => events.push('isLeader'));
    selector.on('notLeader', () => {
      events.push('notLeader');
      throw new Error('listener failed'); // isolated: reported, nothing else breaks
    });
    const values = firstValueFrom(selector.leadershipStates.pipe(toArray()));
    const errors = firstValueFrom(
      selector.errors.pipe(
        filter(({ context }) => context === 'notLeader listener'),
        toArray(),
      ),
    );
    const thrown = firstValueFrom(
      selector.errors.pipe(filter((e) => e.context === 'takeLeadership')),
    );
    const unhandled = firstValueFrom(
      clients[0]!.unhandledErrors.pipe(filter((e) => e.context === 'takeLeadership')),
    );
    await selector.start();
    assert.equal(((await thrown).error as Error).message, 'leader failed');
    assert.equal((await unhandled).error, (await thrown).error);
    await waitFor(async () => (await clients[0]!.getChildren(path)).length === 0, {
      message: 'the node released',
    });
    await waitFor(() => events.length === 2);
    await selector.close();
    assert.equal(calls, 1);
    assert.deepEqual(events, ['isLeader', 'notLeader']);
    assert.deepEqual(await values, [false, true, false]);
    assert.equal((await errors).length, 1);
  });

  it('lifecycle and arguments: start() twice rejects, requeue() before start() throws, bad input fails fast', async () => {
    const path = uniquePath('selector');
    const selector = new LeaderSelector(clients[0]!, path, () => undefined);
    assert.equal(selector.state, 'LATENT');
    assert.throws(() => selector.requeue(), IllegalStateError);
    await selector.start();
    await assert.rejects(selector.start(), IllegalStateError);
    await selector.close();
    await assert.rejects(selector.start(), IllegalStateError);
    assert.throws(() => new LeaderSelector(clients[0]!, 'relative', () => undefined));
    assert.throws(
      () => new LeaderSelector(clients[0]!, path, {} as never),
      /listener must be a function/,
    );
    assert.throws(
      () => new LeaderSelector(clients[0]!, path, () => undefined, { id: 7 as never }),
      /id must be a string/,
    );
    assert.throws(
      () => new LeaderSelector(clients[0]!, path, () => undefined, { autoRequeue: 'yes' as never }),
      /autoRequeue must be a boolean/,
    );
    assert.throws(() => selector.on('leader' as never, () => undefined), /unknown event/);
    // A never-started selector closes too.
    const idle = new LeaderSelector(clients[0]!, path, () => undefined);
    await idle[Symbol.asyncDispose]();
    assert.equal(idle.state, 'CLOSED');
  });

  it('a LeaderSelector on a LeaderLatch path reports the conflict instead of joining', async () => {
    const path = uniquePath('selector');
    const latch = new LeaderLatch(clients[0]!, path, { id: 'latch' });
    await latch.start();
    assert.equal(await latch.await({ timeoutMs: 10_000 }), true);
    let led = false;
    const selector = new LeaderSelector(clients[1]!, path, () => {
      led = true;
    });
    const error = firstValueFrom(selector.errors);
    await selector.start();
    assert.match(String((await error).error), /used by a LeaderLatch/);
    await selector.close();
    await latch.close();
    assert.equal(led, false);
  });
});
