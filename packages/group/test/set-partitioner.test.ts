import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ClosedError,
  IllegalStateError,
  InvalidArgumentError,
  isSessionExpired,
  op,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { killSession, TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, elapsedMs, startClient } from '@zkrecipes/test-support';
import {
  roundRobinPartitions,
  SetPartitioner,
  SetPartitionerState,
  type SetPartitionerOptions,
} from '../src/index.js';

const TIME_BOUNDARY_MS = 200;

function partitionNames(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `p${String(i).padStart(2, '0')}`);
}

/**
 * Fails on overlap: at each check, the members in ACQUIRED own disjoint sets. Checked on every
 * state any member publishes and every 5 ms.
 */
class OverlapWitness {
  readonly #members = new Set<SetPartitioner>();
  readonly #timer = setInterval(() => this.check(), 5);
  violation: string | undefined;
  checks = 0;

  add(member: SetPartitioner): void {
    this.#members.add(member);
    member.states.subscribe(() => this.check());
  }

  check(): void {
    this.checks++;
    const owner = new Map<string, string>();
    for (const member of this.#members) {
      for (const partition of member.partitions) {
        const other = owner.get(partition);
        if (other !== undefined) {
          this.violation ??= `${partition} owned by ${other} and ${member.identifier}`;
        }
        owner.set(partition, member.identifier);
      }
    }
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}

/** Whether `members` are all ACQUIRED and own every one of `partitions`, each once. */
function settled(members: readonly SetPartitioner[], partitions: readonly string[]): boolean {
  if (!members.every((m) => m.state === SetPartitionerState.ACQUIRED)) return false;
  const owned = members.flatMap((m) => m.partitions).sort();
  return owned.join() === [...partitions].sort().join();
}

/** A member that does what a kazoo application does: on RELEASE, releases the set. */
function kazooStyle(
  client: FrameworkClient,
  path: string,
  options: SetPartitionerOptions,
): SetPartitioner {
  const member = new SetPartitioner(client, path, { timeBoundaryMs: TIME_BOUNDARY_MS, ...options });
  member.states.subscribe((state) => {
    if (state === SetPartitionerState.RELEASE) void member.releaseSet();
  });
  return member;
}

describe('SetPartitioner', () => {
  let server: TestingServer;
  let clients: FrameworkClient[];
  before(async () => {
    server = await TestingServer.start();
    clients = await Promise.all(Array.from({ length: 4 }, () => startClient(server.connectString)));
  });
  after(async () => {
    await closeAll(clients);
    await server.close();
  });

  it('roundRobinPartitions: members sorted, each gets floor or ceil of an even split, none twice', () => {
    const partitions = partitionNames(10);
    const members = ['c', 'a', 'b'];
    const shares = members.map((m) => roundRobinPartitions(members, partitions, m));
    assert.deepEqual(shares[1], ['p00', 'p03', 'p06', 'p09']);
    assert.deepEqual(shares.flat().sort(), partitions);
    assert.deepEqual(shares.map((s) => s.length).sort(), [3, 3, 4]);
    assert.deepEqual(roundRobinPartitions(members, partitions, 'stranger'), []);
  });

  it('three members share 64 partitions: each owns 21 or 22, together all 64 once; a hold fences a guarded write with its token', async (t) => {
    const path = uniquePath('partitioner');
    const partitions = partitionNames(64);
    const witness = new OverlapWitness();
    const members = ['m1', 'm2', 'm3'].map(
      (identifier, i) =>
        new SetPartitioner(clients[i]!, path, {
          partitions,
          identifier,
          timeBoundaryMs: TIME_BOUNDARY_MS,
        }),
    );
    try {
      members.forEach((m) => witness.add(m));
      const started = performance.now();
      for (const member of members) await member.start();
      await waitFor(() => settled(members, partitions), { message: 'all 64 owned' });
      t.diagnostic(`settled ${Math.round(performance.now() - started)} ms after the first start`);
      assert.deepEqual(members.map((m) => m.partitions.length).sort(), [21, 21, 22]);
      assert.deepEqual(
        members[0]!.partitions,
        roundRobinPartitions(['m1', 'm2', 'm3'], partitions, 'm1'),
      );

      const hold = members[1]!.holdOf(members[1]!.partitions[0]!)!;
      assert.ok(hold.fencingToken > 0n && hold.isValid());
      assert.match(hold.lockPath, new RegExp(`^${path}/locks/p\\d\\d/_c_.*-lock-\\d{10}$`));
      await hold.transaction([
        op.create(`${path}/data`, { data: Buffer.from(hold.fencingTokenString) }),
      ]);
      const { data } = await clients[3]!.getData(`${path}/data`);
      assert.equal(data.toString(), hold.fencingTokenString);
      assert.equal(members[0]!.holdOf(members[1]!.partitions[0]!), undefined);
      assert.equal(witness.violation, undefined);
    } finally {
      witness.stop();
      await Promise.all(members.map((m) => m.close()));
    }
    assert.ok(members.every((m) => m.state === SetPartitionerState.FAILURE));
    assert.equal(members[0]!.failureReason, undefined);
    assert.deepEqual(await clients[3]!.getChildren(`${path}/party`), []);
  });

  it('a member joins, then one leaves: every member goes through RELEASE, releases and reallocates; no partition is ever owned by two members', async (t) => {
    const path = uniquePath('partitioner');
    const partitions = partitionNames(30);
    const witness = new OverlapWitness();
    const seen = new Map<string, SetPartitionerState[]>();
    const make = (i: number): SetPartitioner => {
      const member = kazooStyle(clients[i]!, path, { partitions, identifier: `m${i}` });
      const states: SetPartitionerState[] = [];
      seen.set(member.identifier, states);
      member.states.subscribe((state) => states.push(state));
      witness.add(member);
      return member;
    };
    const members = [make(0), make(1), make(2)];
    try {
      for (const member of members) await member.start();
      await waitFor(() => settled(members, partitions), { message: 'three members settled' });
      const fourth = make(3);
      members.push(fourth);
      const joined = performance.now();
      await fourth.start();
      await waitFor(
        () => settled(members, partitions) && members.every((m) => m.partitions.length <= 8),
        { message: 'four members settled' },
      );
      t.diagnostic(`join settled in ${Math.round(performance.now() - joined)} ms`);
      assert.deepEqual(members.map((m) => m.partitions.length).sort(), [7, 7, 8, 8]);
      for (const id of ['m0', 'm1', 'm2']) {
        assert.deepEqual(seen.get(id), [
          'ALLOCATING',
          'ACQUIRED',
          'RELEASE',
          'ALLOCATING',
          'ACQUIRED',
        ]);
      }

      const leaving = members.shift()!;
      const left = performance.now();
      await leaving.close();
      await waitFor(
        () => settled(members, partitions) && members.every((m) => m.partitions.length === 10),
        { message: 'three members settled again' },
      );
      t.diagnostic(
        `leave settled in ${Math.round(performance.now() - left)} ms; ${witness.checks} overlap checks`,
      );
      assert.equal(witness.violation, undefined);
    } finally {
      witness.stop();
      await Promise.all(members.map((m) => m.close()));
    }
  });

  it('autoRelease and a custom partition function: every partition goes to the smallest member id, and to the next when it leaves', async () => {
    const path = uniquePath('partitioner');
    const partitions = ['a', 'b', 'c'];
    const calls: string[][] = [];
    const firstTakesAll = (members: readonly string[], all: readonly string[], id: string) => {
      calls.push([...members]);
      return id === members[0] ? all : [];
    };
    const members = ['x', 'y'].map(
      (identifier, i) =>
        new SetPartitioner(clients[i]!, path, {
          partitions,
          identifier,
          partitionFunction: firstTakesAll,
          timeBoundaryMs: TIME_BOUNDARY_MS,
          autoRelease: true,
        }),
    );
    try {
      for (const member of members) await member.start();
      await waitFor(() => settled(members, partitions) && members[0]!.partitions.length === 3);
      assert.deepEqual(members[1]!.partitions, []);
      assert.ok(calls.some((c) => c.join() === 'x,y'));
      await members[0]!.close();
      await waitFor(() => members[1]!.partitions.length === 3, { message: 'y takes all' });
    } finally {
      await Promise.all(members.map((m) => m.close()));
    }
  });

  it('a partition function that returns a partition not in the set: FAILURE with a TypeError, reported on errors', async () => {
    const path = uniquePath('partitioner');
    const member = new SetPartitioner(clients[0]!, path, {
      partitions: ['a'],
      partitionFunction: () => ['nope'],
      timeBoundaryMs: 0,
    });
    const errors: unknown[] = [];
    member.errors.subscribe(({ error }) => errors.push(error));
    await member.start();
    assert.equal(await member.waitForAcquired({ timeoutMs: timing.ms(5000) }), false);
    assert.equal(member.state, SetPartitionerState.FAILURE);
    assert.ok(member.failureReason instanceof TypeError);
    assert.ok(errors.includes(member.failureReason));
    await member.close();
  });

  it('invalid input throws InvalidArgumentError before anything is sent; start() twice and after close() reject', async () => {
    const path = uniquePath('partitioner');
    const client = clients[0]!;
    const bad: unknown[] = [
      undefined,
      {},
      { partitions: 'a' },
      { partitions: ['a', 'a'] },
      { partitions: ['a/b'] },
      { partitions: [''] },
      { partitions: [7] },
      { partitions: ['a'], identifier: 'x/y' },
      { partitions: ['a'], timeBoundaryMs: -1 },
      { partitions: ['a'], partitionFunction: 'round-robin' },
      { partitions: ['a'], autoRelease: 'yes' },
      { partitions: ['a'], partition: ['b'] },
    ];
    for (const options of bad) {
      assert.throws(
        () => new SetPartitioner(client, path, options as SetPartitionerOptions),
        InvalidArgumentError,
        JSON.stringify(options),
      );
    }
    assert.throws(
      () => new SetPartitioner(client, 'relative', { partitions: [] }),
      InvalidArgumentError,
    );
    assert.equal(await client.exists(path), null);

    const member = new SetPartitioner(client, path, { partitions: [], timeBoundaryMs: 0 });
    await member.start();
    await assert.rejects(member.start(), IllegalStateError);
    assert.ok(await member.waitForAcquired({ timeoutMs: timing.ms(5000) }));
    assert.deepEqual(member.partitions, []);
    await member.close();
    await member.close();
    await assert.rejects(member.start(), IllegalStateError);
  });

  it('server stopped under ACQUIRED members: close() resolves in under 1 s, ends in FAILURE and completes the states', async (t) => {
    const path = uniquePath('partitioner');
    const partitions = partitionNames(8);
    const own = await startClient(server.connectString);
    const member = new SetPartitioner(own, path, { partitions, timeBoundaryMs: 0 });
    try {
      await member.start();
      assert.ok(await member.waitForAcquired({ timeoutMs: timing.ms(10_000) }));
      let completed = false;
      member.states.subscribe({ complete: () => (completed = true) });
      await server.stop();
      try {
        const tookMs = await elapsedMs(() => member.close());
        t.diagnostic(`close() with the server stopped: ${tookMs} ms`);
        assert.ok(tookMs < timing.ms(1000), `close() took ${tookMs} ms`);
        assert.equal(member.state, SetPartitionerState.FAILURE);
        await waitFor(() => completed, { message: 'states complete' });
      } finally {
        await server.restart();
      }
    } finally {
      await own.close();
    }
    // The session's locks and group node are gone once it expires at the latest.
    await waitFor(async () => (await clients[0]!.getChildren(`${path}/party`)).length === 0);
  });

  it('session expired under an ACQUIRED member: it reaches FAILURE (SessionExpiredError), its holds are lost, and the other member takes every partition', async (t) => {
    const path = uniquePath('partitioner');
    const partitions = partitionNames(6);
    const victimClient = await startClient(server.connectString);
    const victim = kazooStyle(victimClient, path, { partitions, identifier: 'a-victim' });
    const survivor = kazooStyle(clients[1]!, path, { partitions, identifier: 'b-survivor' });
    try {
      await victim.start();
      await survivor.start();
      await waitFor(() => settled([victim, survivor], partitions));
      const hold = victim.holdOf(victim.partitions[0]!)!;
      const killed = performance.now();
      await killSession(victimClient, server.connectString);
      await waitFor(() => victim.state === SetPartitionerState.FAILURE, { message: 'FAILURE' });
      assert.ok(isSessionExpired(victim.failureReason), String(victim.failureReason));
      assert.ok(hold.lost.aborted && !hold.isValid());
      await assert.rejects(hold.transaction([op.check(path)]));
      await waitFor(() => survivor.partitions.length === 6, { message: 'survivor owns all' });
      t.diagnostic(`survivor owns all ${Math.round(performance.now() - killed)} ms after the kill`);
      assert.deepEqual(victim.partitions, []);
    } finally {
      await Promise.all([victim.close(), survivor.close()]);
      await victimClient.close();
    }
  });

  it('server paused until the client is SUSPENDED (standard error policy): the holds are lost, the member goes to RELEASE and, released, owns its partitions again after the reconnect with greater tokens', async (t) => {
    const path = uniquePath('partitioner');
    const own = await startClient(server.connectString, { sessionTimeoutMs: 6000 });
    const member = kazooStyle(own, path, { partitions: ['a', 'b', 'c'] });
    const states: SetPartitionerState[] = [];
    member.states.subscribe((state) => states.push(state));
    try {
      await member.start();
      assert.ok(await member.waitForAcquired({ timeoutMs: timing.ms(10_000) }));
      const before = member.holdOf('a')!;
      await server.pause();
      try {
        await waitFor(() => own.connectionState === 'SUSPENDED', { message: 'SUSPENDED' });
      } finally {
        server.resume();
      }
      assert.ok(before.lost.aborted);
      await waitFor(() => states.includes('RELEASE'), { message: 'RELEASE' });
      const reacquired = performance.now();
      await waitFor(() => member.state === SetPartitionerState.ACQUIRED, { message: 'again' });
      t.diagnostic(`ACQUIRED again ${Math.round(performance.now() - reacquired)} ms after RELEASE`);
      assert.deepEqual(states, ['ALLOCATING', 'ACQUIRED', 'RELEASE', 'ALLOCATING', 'ACQUIRED']);
      assert.ok(member.holdOf('a')!.fencingToken > before.fencingToken);
      await assert.rejects(before.transaction([op.check(path)]));
      await member.holdOf('a')!.transaction([op.check(path)]);
    } finally {
      await member.close();
      await own.close();
    }
  });

  it('the client closed under a started partitioner: FAILURE with ClosedError, nothing reported as unhandled', async () => {
    const path = uniquePath('partitioner');
    const own = await startClient(server.connectString);
    const unhandled: unknown[] = [];
    own.unhandledErrors.subscribe(({ error }) => unhandled.push(error));
    const member = new SetPartitioner(own, path, { partitions: ['a'], timeBoundaryMs: 0 });
    await member.start();
    assert.ok(await member.waitForAcquired({ timeoutMs: timing.ms(10_000) }));
    await own.close();
    await waitFor(() => member.state === SetPartitionerState.FAILURE, { message: 'FAILURE' });
    assert.ok(member.failureReason instanceof ClosedError);
    await member.close();
    assert.deepEqual(unhandled, []);
  });

  it('close() before start() ends in FAILURE and sends nothing', async () => {
    const path = uniquePath('partitioner');
    const member = new SetPartitioner(clients[0]!, path, { partitions: ['a'] });
    await member.close();
    assert.equal(member.state, SetPartitionerState.FAILURE);
    assert.equal(await clients[0]!.exists(path), null);
    await assert.rejects(member.start(), IllegalStateError);
    assert.equal(member.failureReason, undefined);
  });
});
