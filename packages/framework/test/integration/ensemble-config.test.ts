import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fourLetterWord, TestingCluster, TestingServer, timing, waitFor } from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { isBadVersion, isNoAuth, isReconfigDisabled } from '../../src/errors/predicates.js';
import { ReconfigDisabledError } from '../../src/errors/zookeeper-error-classes.js';
import { parseEnsembleConfig } from '../../src/paths/ensemble-config.js';
import type { WatchedEvent } from '../../src/zk/zookeeper-types.js';

/** The `server.N=` and `version=` lines a server's `conf` reports, parsed as getConfig parses. */
async function reported(port: number) {
  const conf = await fourLetterWord('127.0.0.1', port, 'conf', { timeoutMs: timing.ms(2000) });
  const lines = conf.split('\n').filter((line) => /^(server\.\d+|version)=/.test(line));
  return parseEnsembleConfig(lines.join('\n'));
}

describe('getConfig and reconfig on a reconfig-enabled ensemble', () => {
  let cluster: TestingCluster;
  const clients: FrameworkClient[] = [];
  const client = async (options: { chroot?: string; namespace?: string; admin?: boolean } = {}) => {
    const made = createFramework({
      connectString: `${cluster.connectString}${options.chroot ?? ''}`,
      namespace: options.namespace,
      sessionTimeoutMs: 10_000,
      authInfo: options.admin === true ? [cluster.superAuth!] : undefined,
      logger: silentLogger,
    });
    clients.push(made);
    await made.start({ timeoutMs: timing.ms(10_000) });
    return made;
  };
  before(async () => {
    cluster = await TestingCluster.start({ size: 3, reconfigEnabled: true });
  });
  after(async () => {
    await Promise.all(clients.map((made) => made.close()));
    await cluster.close();
  });

  it('getConfig parses what the servers report: ids, ports, roles, client addresses, version', async () => {
    const plain = await client();
    const config = await plain.getConfig();
    const expected = await reported(cluster.servers[0]!.port);
    assert.deepEqual(config.members, expected.members);
    assert.equal(config.version, expected.version);
    assert.equal(config.members.length, 3);
    for (const [index, server] of cluster.servers.entries()) {
      const member = config.members.find((m) => m.id === server.id);
      assert.equal(member?.clientPort, server.port, `server ${index}'s client port`);
      assert.equal(member?.clientHost, '127.0.0.1');
      assert.equal(member?.role, 'participant');
    }
    assert.match(config.raw, /^version=[0-9a-f]+$/m);
    assert.equal(config.version, BigInt(`0x${config.versionHex}`));
  });

  it('under a chroot and a namespace, getConfig still reads the root /zookeeper/config', async () => {
    const admin = await client({ admin: true });
    await admin.create('/chrooted', { createParents: true }).catch(() => undefined);
    const chrooted = await client({ chroot: '/chrooted' });
    const namespaced = await client({ namespace: 'app' });
    const both = await client({ chroot: '/zoo', namespace: 'ns' });
    const expected = await admin.getConfig();
    for (const other of [chrooted, namespaced, both]) {
      const config = await other.getConfig();
      assert.deepEqual(config.members, expected.members);
      assert.equal(config.version, expected.version);
    }
    // A plain getData under the chroot is not the config: '/zookeeper/config' is below it.
    await assert.rejects(chrooted.getData('/zookeeper/config'), { code: 'NO_NODE' });
  });

  it('reconfig without credentials is refused with NO_AUTH, nothing changed', async () => {
    const plain = await client();
    const before = await plain.getConfig();
    await assert.rejects(plain.reconfig({ leaving: 1 }), (error: unknown) => isNoAuth(error));
    assert.equal((await plain.getConfig()).version, before.version);
  });

  it('reconfig from a stale version is refused with BAD_VERSION', async () => {
    const admin = await client({ admin: true });
    const { version } = await admin.getConfig();
    await assert.rejects(
      admin.reconfig({ leaving: 99, fromConfig: version! - 1n }),
      (error: unknown) => isBadVersion(error),
    );
  });

  it('reconfig removes a follower and adds it back; a watch on the config fires, under a chroot too', async () => {
    const admin = await client({ admin: true });
    const watcher = await client({ chroot: '/chrooted' });
    const events: WatchedEvent[] = [];
    const before = await watcher.getConfig({ watch: (event) => events.push(event) });
    const leader = await cluster.findLeader();
    const follower = cluster.servers.find((server) => server.index !== leader)!;
    const removed = await admin.reconfig({ leaving: follower.id, fromConfig: before.version });
    assert.deepEqual(
      removed.members.map((m) => m.id).sort(),
      before.members
        .map((m) => m.id)
        .filter((id) => id !== follower.id)
        .sort(),
    );
    assert.ok(removed.version! > before.version!);
    await waitFor(() => events.length === 1, { timeoutMs: 10_000, message: 'the config watch' });
    assert.deepEqual(events, [{ type: 'NODE_DATA_CHANGED', path: '/zookeeper/config' }]);
    const member = before.members.find((m) => m.id === follower.id)!;
    const restored = await admin.reconfig({ joining: member });
    assert.deepEqual(
      restored.members.find((m) => m.id === follower.id),
      member,
    );
    // Another session's server may not have applied the re-add yet (reads are not
    // linearizable): it reads the same members once it has.
    await waitFor(
      async () =>
        JSON.stringify((await watcher.getConfig()).members) === JSON.stringify(restored.members),
      { timeoutMs: 10_000, message: "the restored config on the watcher's server" },
    );
  });
});

describe('reconfig on a server without reconfigEnabled', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(() => server.close());

  it('rejects with ReconfigDisabledError', async () => {
    const client = createFramework({ connectString: server.connectString, logger: silentLogger });
    await client.start();
    try {
      const error = await client.reconfig({ leaving: 2 }).then(
        () => assert.fail('reconfig succeeded'),
        (caught: unknown) => caught,
      );
      assert.ok(error instanceof ReconfigDisabledError);
      assert.ok(isReconfigDisabled(error));
      assert.equal(error.zkCode, -123);
    } finally {
      await client.close();
    }
  });

  it('rejects bad reconfig input before sending anything', async () => {
    const client = createFramework({ connectString: server.connectString, logger: silentLogger });
    await client.start();
    try {
      await assert.rejects(client.reconfig({}), { code: 'INVALID_ARGUMENT' });
      await assert.rejects(client.reconfig({ leaving: 1, members: ['server.1=a:1:2'] }), {
        code: 'INVALID_ARGUMENT',
      });
      await assert.rejects(client.reconfig({ joining: 'nonsense' }), { code: 'INVALID_ARGUMENT' });
      await assert.rejects(client.reconfig({ leaving: -1 }), { code: 'INVALID_ARGUMENT' });
      assert.throws(() => client.updateServers('127.0.0.1:1/other'), { code: 'INVALID_ARGUMENT' });
    } finally {
      await client.close();
    }
  });
});
