// A TLS client of a 3-member ensemble whose members serve a secure client port (the quorum
// itself is plaintext): losing the member it is connected to moves it, over TLS, to another.
import assert from 'node:assert/strict';
import { connect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import {
  ConnectionState,
  createFramework,
  x509Acl,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { TestingCluster, TlsMaterial, timing, waitFor } from '@zkrecipes/testing';

const silent = { error() {}, warn() {}, info() {}, debug() {} };

describe('TestingCluster with tls', () => {
  let material: TlsMaterial;
  let cluster: TestingCluster;
  before(async () => {
    material = await TlsMaterial.create({ clients: ['alice'] });
    cluster = await TestingCluster.start({ size: 3, tls: { material, clientAuth: 'need' } });
  });
  after(async () => {
    await cluster?.close();
    await material?.close();
  });

  /**
   * `cons` asked on a member's secure port: a member lists the connections of the port the
   * command came in on, so the plaintext port's `cons` does not show TLS sessions.
   */
  function secureCons(port: number): Promise<string> {
    const alice = material.client('alice');
    return new Promise((resolve, reject) => {
      const socket = connect(
        { host: '127.0.0.1', port, ca: material.caCert, cert: alice.cert, key: alice.key },
        () => socket.end('cons'),
      );
      let reply = '';
      socket.setTimeout(timing.ms(5000), () => socket.destroy(new Error('cons: no reply')));
      socket.on('data', (chunk: Buffer) => (reply += chunk.toString()));
      socket.on('end', () => resolve(reply));
      socket.on('error', reject);
    });
  }

  /** The index of the member whose `cons` lists the client's session, or -1. */
  async function memberOf(client: FrameworkClient): Promise<number> {
    const sid = `sid=0x${client.sessionId?.toString(16)}`;
    for (const [index, member] of cluster.servers.entries()) {
      if (!member.running || member.securePort === undefined) continue;
      if ((await secureCons(member.securePort)).includes(sid)) return index;
    }
    return -1;
  }

  it("secureConnectString lists every member's secure port", () => {
    assert.equal(
      cluster.secureConnectString,
      cluster.servers.map((server) => `127.0.0.1:${server.securePort}`).join(','),
    );
    const ports = cluster.servers.flatMap((server) => [server.port, server.securePort]);
    assert.equal(new Set(ports).size, 6, 'every port distinct');
  });

  it('the member a mutual-TLS client is connected to is killed: SUSPENDED, then RECONNECTED over TLS to another member, same session and identity', async () => {
    const alice = material.client('alice');
    const client = createFramework({
      connectString: cluster.secureConnectString,
      sessionTimeoutMs: 10_000,
      tls: { ca: material.caCert, cert: alice.cert, key: alice.key },
      logger: silent,
    });
    try {
      await client.start({ timeoutMs: timing.ms(10_000) });
      const ephemeral = await client.create('/tls-failover-eph', { mode: 'EPHEMERAL' });
      // Readable by alice's certificate only: after the move, the new member must know her too.
      const guarded = await client.create('/tls-failover-x509', {
        data: Buffer.from('for alice'),
        acl: [x509Acl(alice.subjectDn)],
      });
      const before = await memberOf(client);
      assert.ok(before >= 0, 'a member lists the session');
      const sessionBefore = client.sessionId;
      const seen: ConnectionState[] = [];
      client.on('stateChanged', (state) => seen.push(state));

      await cluster.killServer(before);
      await waitFor(() => seen.includes(ConnectionState.RECONNECTED), {
        timeoutMs: timing.ms(20_000),
        message: 'RECONNECTED to another member',
      });
      assert.deepEqual(seen, [ConnectionState.SUSPENDED, ConnectionState.RECONNECTED]);
      assert.equal(client.sessionId, sessionBefore);
      const after = await memberOf(client);
      assert.ok(after >= 0 && after !== before, `moved from member ${before} (now ${after})`);
      assert.notEqual(await client.exists(ephemeral), null);
      assert.equal((await client.getData(guarded)).data.toString(), 'for alice');
    } finally {
      await client.close();
    }
  });
});
