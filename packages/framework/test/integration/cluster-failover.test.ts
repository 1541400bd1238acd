import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fourLetterWord, TestingCluster, timing, waitFor } from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { ConnectionState } from '../../src/state/connection-state.js';

describe('3-node ensemble', () => {
  let cluster: TestingCluster;
  before(async () => {
    cluster = await TestingCluster.start({ size: 3 });
  });
  after(() => cluster.close());

  it('the server the client is connected to is killed: SUSPENDED then RECONNECTED to another server, same session, no LOST', async () => {
    const client = createFramework({
      connectString: cluster.connectString,
      sessionTimeoutMs: 10_000,
      logger: silentLogger,
    });
    await client.start();
    try {
      assert.equal(await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) }), true);
      const path = await client.create('/failover-eph', { mode: 'EPHEMERAL' });
      const sessionHex = `0x${client.sessionId?.toString(16)}`;
      // `cons` lists each server's connections with their session ids.
      let connectedTo = -1;
      for (const [index, member] of cluster.servers.entries()) {
        const cons = await fourLetterWord('127.0.0.1', member.port, 'cons', { timeoutMs: 2000 });
        if (cons.includes(`sid=${sessionHex}`)) connectedTo = index;
      }
      assert.ok(connectedTo >= 0, `no server lists session ${sessionHex}`);
      const seen: ConnectionState[] = [];
      client.on('stateChanged', (state) => seen.push(state));
      const sessionBefore = client.sessionId;
      await cluster.killServer(connectedTo);
      await waitFor(() => seen.includes(ConnectionState.RECONNECTED), {
        timeoutMs: 20_000,
        message: 'RECONNECTED to another server',
      });
      assert.deepEqual(seen, [ConnectionState.SUSPENDED, ConnectionState.RECONNECTED]);
      assert.equal(client.sessionId, sessionBefore);
      assert.notEqual(await client.exists(path), null);
    } finally {
      await client.close();
    }
  });
});
