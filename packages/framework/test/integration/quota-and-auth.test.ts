import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { isAuthFailed, isNoAuth } from '../../src/errors/predicates.js';
import { ZooKeeperError } from '../../src/errors/zookeeper-error.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { ConnectionState } from '../../src/state/connection-state.js';

/** ZooKeeper's digest ACL id: user:base64(sha1(user:password)). */
function digestId(user: string, password: string): string {
  return `${user}:${createHash('sha1').update(`${user}:${password}`).digest('base64')}`;
}

describe('quota enforcement and auth on reconnect', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start({ jvmFlags: ['-Dzookeeper.enforceQuota=true'] });
    client = createFramework({
      connectString: server.connectString,
      sessionTimeoutMs: 10_000,
      authInfo: [{ scheme: 'digest', auth: 'app:secret' }],
      logger: silentLogger,
    });
    await client.start();
    await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('an enforced count quota exceeded: the create rejects with a typed QUOTA_EXCEEDED error and the process survives', async () => {
    const path = uniquePath('quota');
    await client.create(path);
    // ZooKeeper's hard quota: a limits node (and a stats node) under /zookeeper/quota<path>.
    await client.create(`/zookeeper/quota${path}/zookeeper_limits`, {
      createParents: true,
      data: Buffer.from('count=-1,bytes=-1,countHardLimit=2,byteHardLimit=-1'),
    });
    await client.create(`/zookeeper/quota${path}/zookeeper_stats`, {
      data: Buffer.from('count=1,bytes=0'),
    });
    await client.create(`${path}/first`);
    const error = await client.create(`${path}/second`).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof ZooKeeperError, `expected a ZooKeeperError, got ${String(error)}`);
    assert.equal(error.code, 'QUOTA_EXCEEDED');
    assert.equal(error.zkCode, -125);
    assert.equal(error.retryable, false);
    // Still alive and connected.
    assert.notEqual(await client.exists(path), null);
  });

  it('a digest-ACL node is readable right after a reconnect (auth is re-sent before parked operations)', async () => {
    const path = uniquePath('acl');
    await client.create(path, {
      data: Buffer.from('secret data'),
      acl: [{ perms: 31, id: { scheme: 'digest', id: digestId('app', 'secret') } }],
    });
    const suspended = new Promise<void>((resolve) => {
      const off = client.on('stateChanged', (state) => {
        if (state === ConnectionState.SUSPENDED) {
          off();
          resolve();
        }
      });
    });
    await server.stop();
    await suspended;
    // Issued while disconnected: parked until the connection and the auth are back.
    const read = client.getData(path);
    await server.restart();
    const { data } = await read;
    assert.equal(data.toString(), 'secret data');
    await waitFor(() => client.connectionState === ConnectionState.RECONNECTED, {
      timeoutMs: 10_000,
      message: 'RECONNECTED',
    });
  });

  it('a client without the credentials is refused with NoAuth (the ACL is real)', async () => {
    const path = uniquePath('acl');
    await client.create(path, {
      acl: [{ perms: 31, id: { scheme: 'digest', id: digestId('app', 'secret') } }],
    });
    const stranger = createFramework({ connectString: server.connectString, logger: silentLogger });
    try {
      await stranger.start();
      const error = await stranger.getData(path).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(isNoAuth(error), `expected NO_AUTH, got ${String(error)}`);
    } finally {
      await stranger.close();
    }
  });

  it('credentials the server rejects (AUTH_FAILED) are terminal: blockUntilConnected false, LOST once, every operation AuthFailedError, no reconnect loop', async () => {
    const rejected = createFramework({
      connectString: server.connectString,
      sessionTimeoutMs: 2_000,
      authInfo: [{ scheme: 'no-such-scheme', auth: 'x' }],
      logger: silentLogger,
    });
    const seen: ConnectionState[] = [];
    rejected.on('stateChanged', (state) => seen.push(state));
    await rejected.start();
    try {
      const parked = rejected.exists('/');
      assert.equal(await rejected.blockUntilConnected({ timeoutMs: timing.ms(10_000) }), false);
      await assert.rejects(parked, (error) => isAuthFailed(error));
      await assert.rejects(rejected.getChildren('/'), (error) => isAuthFailed(error));
      await waitFor(() => seen.includes(ConnectionState.LOST), {
        timeoutMs: timing.ms(5_000),
        message: 'LOST published',
      });
      // Two session timeouts later nothing has cycled: no CONNECTED, no new session.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      assert.deepEqual(seen, [ConnectionState.LOST]);
      assert.equal(rejected.isConnected, false);
    } finally {
      await rejected.close();
    }
  });
});
