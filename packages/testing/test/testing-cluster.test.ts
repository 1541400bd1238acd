import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import {
  fourLetterWord,
  RawZooKeeperSession,
  TestingCluster,
  uniquePath,
  waitFor,
} from '../src/index.js';

async function modes(cluster: TestingCluster): Promise<string[]> {
  return Promise.all(
    cluster.servers.map(async (server) => {
      if (!server.running) return 'down';
      const reply = await fourLetterWord(server.host, server.port, 'srvr', { timeoutMs: 2000 });
      return /^Mode: (\w+)$/m.exec(reply)?.[1] ?? 'not serving';
    }),
  );
}

describe('TestingCluster', () => {
  let cluster: TestingCluster;
  before(async () => {
    cluster = await TestingCluster.start();
  });
  after(() => cluster.close());

  it('starts three servers on loopback with one leader and two followers', async () => {
    assert.equal(cluster.servers.length, 3);
    assert.equal(
      cluster.connectString,
      cluster.servers.map((server) => `127.0.0.1:${server.port}`).join(','),
    );
    assert.deepEqual(
      cluster.servers.map((server) => server.id),
      [1, 2, 3],
    );
    assert.ok(cluster.servers.every((server) => server.running && server.pid !== undefined));
    const current = await modes(cluster);
    assert.deepEqual([...current].sort(), ['follower', 'follower', 'leader']);
    assert.equal(await cluster.findLeader(), current.indexOf('leader'));
  });

  it('killServer(leader): another leader is elected and the rest keep serving writes', async () => {
    const oldLeader = await cluster.findLeader();
    await cluster.killServer(oldLeader);
    assert.equal(cluster.servers[oldLeader]?.running, false);
    const { leader } = await waitFor(
      async () => {
        const index = await cluster.findLeader();
        return index !== oldLeader ? { leader: index } : undefined;
      },
      { message: 'a new leader' },
    );
    assert.notEqual(leader, oldLeader);

    // The raw client skips the dead server in the connect string.
    const writer = await RawZooKeeperSession.connect(cluster.connectString);
    const path = uniquePath('cluster');
    try {
      await writer.create(path, 'after failover');
    } finally {
      await writer.close();
    }
    const other = cluster.servers.find(
      (server) => server.running && server.port !== writer.server.port,
    );
    assert.ok(other, 'a second live server');
    const reader = await RawZooKeeperSession.connect(other.connectString);
    try {
      await waitFor(() => reader.exists(path), { message: 'the write to replicate' });
      assert.equal((await reader.getData(path)).toString(), 'after failover');
    } finally {
      await reader.close();
    }
  });

  it('restartServer brings a killed server back as a follower that caught up on missed writes', async () => {
    let index = cluster.servers.findIndex((server) => !server.running);
    if (index < 0) {
      index = await cluster.findLeader();
      await cluster.killServer(index);
    }
    const path = uniquePath('missed');
    const writer = await RawZooKeeperSession.connect(cluster.connectString);
    try {
      await writer.create(path, 'written while down');
    } finally {
      await writer.close();
    }
    const port = cluster.servers[index]?.port;
    await cluster.restartServer(index);
    const server = cluster.servers[index];
    assert.ok(server?.running);
    assert.equal(server.port, port);
    assert.equal((await modes(cluster))[index], 'follower');
    const session = await RawZooKeeperSession.connect(server.connectString);
    try {
      assert.equal(session.server.port, port);
      assert.equal((await session.getData(path)).toString(), 'written while down');
    } finally {
      await session.close();
    }
  });

  it('close kills every server and removes the temp dir', async () => {
    const own = await TestingCluster.start({ size: 1 });
    const pids = own.servers.map((server) => server.pid);
    assert.equal(await own.findLeader(), 0);
    await own.close();
    assert.equal(existsSync(own.tempDir), false);
    for (const pid of pids) {
      assert.ok(pid !== undefined);
      assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' });
    }
    await own.close();
  });
});
