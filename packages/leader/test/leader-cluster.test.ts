import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConnectionState, type FrameworkClient } from '@zkrecipes/framework';
import { TestingCluster, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import { contender, ids, LeaderWitness } from './helpers.js';

describe('LeaderSelector on a 3-server ensemble', () => {
  let cluster: TestingCluster;
  before(async () => {
    cluster = await TestingCluster.start({ size: 3 });
  });
  after(() => cluster.close());

  it('the ZooKeeper leader killed in the middle of an election: one leader at any instant, and exactly one after recovery', async () => {
    const path = uniquePath('cluster');
    const clients: FrameworkClient[] = [];
    for (let i = 0; i < 3; i++) {
      clients.push(await connectedClient(cluster, { sessionTimeoutMs: 10_000 }));
    }
    const suspended = clients.map(() => false);
    clients.forEach((client, i) =>
      client.on('stateChanged', (state) => {
        if (state === ConnectionState.SUSPENDED) suspended[i] = true;
      }),
    );
    const witness = new LeaderWitness();
    const all = clients.map((client, i) =>
      contender(client, path, `p${i}`, witness, { autoRequeue: true }),
    );
    try {
      for (const { selector } of all) await selector.start();
      await waitFor(async () => (await ids(all[0]!.selector)).length === 3);
      const leader = await waitFor(() => all.find(({ selector }) => selector.isLeader));
      const zkLeader = await cluster.findLeader();
      // The election starts (the leader gives up) and the ZooKeeper leader dies at once.
      leader.release();
      await cluster.killServer(zkLeader);
      await waitFor(() => suspended.some(Boolean), { message: 'a client SUSPENDED' });
      await waitFor(
        async () => {
          const leaders = all.filter(({ selector }) => selector.isLeader);
          return leaders.length === 1 && (await ids(all[0]!.selector)).length === 3;
        },
        { timeoutMs: 30_000, message: 'exactly one leader and all three queued again' },
      );
      // The election still works: two more hand-overs.
      for (let round = 0; round < 2; round++) {
        const current = all.find(({ selector }) => selector.isLeader)!;
        const count = witness.leaders.length;
        current.release();
        await waitFor(() => witness.leaders.length > count, { timeoutMs: 15_000 });
      }
      assert.deepEqual(witness.violations, []);
      assert.equal(all.filter(({ selector }) => selector.isLeader).length, 1);
    } finally {
      await closeAll(all.map(({ selector }) => selector));
      await closeAll(clients);
    }
  });
});
