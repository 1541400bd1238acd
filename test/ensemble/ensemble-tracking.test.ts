// Clients follow the ensemble's membership: a member added by reconfig and one removed and
// stopped. Each client below first knows a single server (the one to be removed), so only the
// tracked member list can take it anywhere else.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ConnectionState,
  createFramework,
  type FrameworkClient,
  type FrameworkOptions,
} from '@zkrecipes/framework';
import { LeaderLatch } from '@zkrecipes/leader';
import { InterProcessMutex } from '@zkrecipes/locks';
import { fourLetterWord, TestingCluster, timing, waitFor } from '@zkrecipes/testing';

const silent = { error() {}, warn() {}, info() {}, debug() {} };

/** The index of the server whose `cons` lists `sessionId`, or -1. */
async function serverOf(cluster: TestingCluster, sessionId: bigint | undefined): Promise<number> {
  const sid = `sid=0x${sessionId?.toString(16)}`;
  for (const server of cluster.servers) {
    if (!server.running) continue;
    const cons = await fourLetterWord(server.host, server.port, 'cons', {
      timeoutMs: timing.ms(2000),
    }).catch(() => '');
    if (cons.includes(sid)) return server.index;
  }
  return -1;
}

describe('ensemble tracking', () => {
  let cluster: TestingCluster;
  const clients: FrameworkClient[] = [];
  const open = async (connectString: string, options: Partial<FrameworkOptions> = {}) => {
    const client = createFramework({
      connectString,
      sessionTimeoutMs: 10_000,
      logger: silent,
      ...options,
    });
    clients.push(client);
    await client.start({ timeoutMs: timing.ms(10_000) });
    return client;
  };
  before(async () => {
    cluster = await TestingCluster.start({ size: 3, reconfigEnabled: true });
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await cluster.close();
  });

  it('a member added and one removed and stopped: clients holding a lock and a latch move to the new members, same sessions, chroot kept', async () => {
    const admin = await open(cluster.connectString, { authInfo: [cluster.superAuth!] });
    await admin.create('/app', { createParents: true });
    const leader = await cluster.findLeader();
    const doomed = cluster.servers.find((server) => server.index !== leader)!;
    // Both know only the member that is going to be removed.
    const locker = await open(doomed.connectString);
    const chrooted = await open(`${doomed.connectString}/app`);
    const mutex = new InterProcessMutex(locker, '/tracked/lock');
    await mutex.acquire();
    const latch = new LeaderLatch(chrooted, '/latch', { id: 'chrooted' });
    await latch.start();
    await latch.await({ timeoutMs: timing.ms(10_000) });
    const sessions = [locker.sessionId, chrooted.sessionId];
    const seen: ConnectionState[][] = [[], []];
    [locker, chrooted].forEach((client, i) => client.on('stateChanged', (s) => seen[i]!.push(s)));

    // The tracker has read the first configuration: every member.
    for (const client of [locker, chrooted]) {
      await waitFor(() => client.connectString.split(',').length === 3, {
        timeoutMs: 10_000,
        message: 'the tracked list of three members',
      });
    }
    const startedAt = performance.now();
    const added = await cluster.addServer();
    const addMs = performance.now() - startedAt;
    await cluster.removeServer(doomed.index);
    const expected = cluster.servers
      .filter((server) => server.index !== doomed.index)
      .map((server) => server.connectString)
      .sort();
    for (const [client, chroot] of [
      [locker, ''],
      [chrooted, '/app'],
    ] as const) {
      await waitFor(
        () =>
          client.connectString.endsWith(chroot) &&
          client.connectString
            .slice(0, client.connectString.length - chroot.length)
            .split(',')
            .sort()
            .join() === expected.join(),
        { timeoutMs: 10_000, message: `the tracked list without server ${doomed.index}` },
      );
    }
    assert.ok(expected.includes(added.connectString));

    await cluster.killServer(doomed.index);
    for (const client of [locker, chrooted]) {
      await waitFor(() => client.connectionState === ConnectionState.RECONNECTED, {
        timeoutMs: 20_000,
        message: 'RECONNECTED to a member of the new configuration',
      });
    }
    assert.deepEqual([locker.sessionId, chrooted.sessionId], sessions);
    assert.ok(!seen.flat().includes(ConnectionState.LOST), `states: ${JSON.stringify(seen)}`);
    for (const client of [locker, chrooted]) {
      const server = await serverOf(cluster, client.sessionId);
      assert.ok(server >= 0 && server !== doomed.index, `connected to server ${server}`);
    }
    // The lock and the leadership are the same sessions' nodes, still there.
    assert.ok(mutex.isAcquiredInThisProcess());
    await waitFor(() => latch.isLeader, { timeoutMs: 10_000, message: 'the latch leads again' });
    // The chroot is kept: its writes land under /app.
    await chrooted.create('/written-after-move');
    assert.notEqual(await admin.exists('/app/written-after-move'), null);
    assert.equal((await locker.getChildren('/tracked/lock')).length, 1);
    await mutex.release();
    await latch.close();
    console.log(`# addServer took ${Math.round(addMs)} ms`);
  });

  it('updateServers moves a client without a tracker to another list; the session stays', async () => {
    const running = cluster.servers.filter((server) => server.running);
    const [from, to] = running.slice(-2);
    const client = await open(`${from!.connectString}/app`, { ensembleTracker: false });
    const session = client.sessionId;
    client.updateServers(to!.connectString);
    assert.equal(client.connectString, `${to!.connectString}/app`);
    await cluster.killServer(from!.index);
    await waitFor(() => client.connectionState === ConnectionState.RECONNECTED, {
      timeoutMs: 20_000,
      message: 'RECONNECTED to the updated list',
    });
    assert.equal(client.sessionId, session);
    assert.equal(await serverOf(cluster, client.sessionId), to!.index);
    await client.create('/after-update');
    assert.notEqual(await client.exists('/after-update'), null);
  });
});
