// The fault cases over TLS: a blackholed link (FaultProxy in front of the secure port, so the
// TLS bytes cross it as they are) and a restarted server. The framework's liveness, LOST timer
// and reconnects work on the TLS socket as they do on plain TCP.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  FaultProxy,
  TestingServer,
  TlsMaterial,
  timing,
  uniquePath,
  waitFor,
} from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { ConnectionState } from '../../src/state/connection-state.js';

const SESSION_TIMEOUT_MS = 4000;

describe('TLS under faults: a blackholed link and a restarted server', () => {
  let material: TlsMaterial;
  let server: TestingServer;
  let observer: FrameworkClient;
  before(async () => {
    material = await TlsMaterial.create();
    server = await TestingServer.start({ tls: { material } });
    observer = createFramework({ connectString: server.connectString, logger: silentLogger });
    await observer.start({ timeoutMs: timing.ms(10_000) });
  });
  after(async () => {
    await observer.close();
    await server.close();
    await material.close();
  });

  /** A TLS client of `connectString`, with every state it reaches recorded. */
  async function tlsClient(
    connectString: string,
    sessionTimeoutMs = SESSION_TIMEOUT_MS,
  ): Promise<{ client: FrameworkClient; states: ConnectionState[] }> {
    const client = createFramework({
      connectString,
      sessionTimeoutMs,
      connectionTimeoutMs: 2000,
      tls: { ca: material.caCert },
      logger: silentLogger,
    });
    const states: ConnectionState[] = [];
    client.on('stateChanged', (state) => states.push(state));
    await client.start({ timeoutMs: timing.ms(10_000) });
    return { client, states };
  }

  it('blackholed briefly: SUSPENDED, a bounded read, then RECONNECTED in the same session', async () => {
    const proxy = await FaultProxy.start({ targetPort: server.securePort! });
    const { client, states } = await tlsClient(proxy.connectString);
    try {
      const path = uniquePath('tls-blackhole');
      await client.create(path, { mode: 'EPHEMERAL' });
      const sessionId = client.sessionId;
      proxy.blackhole();
      const began = performance.now();
      const read = await client.getData(path, { signal: AbortSignal.timeout(1000) }).then(
        () => 'answered',
        (error: unknown) => (error as Error).name,
      );
      assert.equal(read, 'TimeoutError', 'the read ends with its signal');
      assert.ok(performance.now() - began < timing.ms(2000), 'the read ended on time');
      await waitFor(() => states.includes(ConnectionState.SUSPENDED), {
        message: 'SUSPENDED behind the blackhole',
        timeoutMs: timing.ms(SESSION_TIMEOUT_MS),
      });
      proxy.heal();
      await waitFor(() => states.at(-1) === ConnectionState.RECONNECTED, {
        message: 'RECONNECTED after the heal',
        timeoutMs: timing.ms(10_000),
      });
      assert.equal(client.sessionId, sessionId, 'the same session');
      assert.notEqual(await observer.exists(path), null, 'its ephemeral node kept');
      assert.ok(!states.includes(ConnectionState.LOST), states.join());
    } finally {
      await client.close();
      await proxy.close();
    }
  });

  it('blackholed past the session: LOST before the server expires it, then a new session over TLS; close() is prompt meanwhile', async () => {
    const proxy = await FaultProxy.start({ targetPort: server.securePort! });
    const { client, states } = await tlsClient(proxy.connectString);
    try {
      const path = uniquePath('tls-blackhole-lost');
      await client.create(path, { mode: 'EPHEMERAL' });
      const sessionId = client.sessionId;
      let expired = false;
      await observer.exists(path, { watch: () => (expired = true) });
      proxy.blackhole();
      await waitFor(() => states.includes(ConnectionState.LOST), {
        message: 'LOST behind the blackhole',
        timeoutMs: timing.ms(3 * SESSION_TIMEOUT_MS),
      });
      assert.equal(expired, false, 'LOST came before the server expired the session');
      proxy.heal();
      await waitFor(() => states.at(-1) === ConnectionState.RECONNECTED, {
        message: 'RECONNECTED with a new session',
        timeoutMs: timing.ms(15_000),
      });
      assert.notEqual(client.sessionId, sessionId, 'a new session');
      proxy.blackhole();
      const closing = performance.now();
      await client.close();
      assert.ok(performance.now() - closing < timing.ms(2000), 'close() behind a blackhole');
    } finally {
      await client.close();
      await proxy.close();
    }
  });

  it('the server restarted: RECONNECTED over TLS in the same session, requests made meanwhile answered', async () => {
    // A session that outlives the restart (a JVM start takes seconds on a loaded machine).
    const { client, states } = await tlsClient(server.secureConnectString, 20_000);
    try {
      const path = uniquePath('tls-restart');
      await client.create(path, { mode: 'EPHEMERAL' });
      const sessionId = client.sessionId;
      await server.stop();
      await waitFor(() => states.includes(ConnectionState.SUSPENDED), {
        message: 'SUSPENDED with the server stopped',
      });
      const parked = client.exists(path);
      await server.restart();
      assert.notEqual(await parked, null, 'the parked request answered after the restart');
      await waitFor(() => states.at(-1) === ConnectionState.RECONNECTED, {
        message: 'RECONNECTED after the restart',
        timeoutMs: timing.ms(10_000),
      });
      assert.equal(client.sessionId, sessionId, 'the same session');
    } finally {
      await client.close();
    }
  });
});
