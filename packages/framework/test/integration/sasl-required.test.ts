import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TestingServer, timing, uniquePath } from '@zkrecipes/testing';
import { createFramework, type FrameworkOptions } from '../../src/create-framework.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { isAuthFailed } from '../../src/errors/predicates.js';
import type { ZooKeeperError } from '../../src/errors/zookeeper-error.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { ConnectionState } from '../../src/state/connection-state.js';
import type { WatchedEvent } from '../../src/zk/zookeeper-types.js';
import { RecordingMechanism } from './fixtures/recording-mechanism.js';

describe('SASL required by the server (enforce.auth.enabled, schemes sasl)', () => {
  let server: TestingServer;
  const clients: FrameworkClient[] = [];
  const client = (options: Omit<FrameworkOptions, 'connectString'>): FrameworkClient => {
    const made = createFramework({
      connectString: server.connectString,
      logger: silentLogger,
      ...options,
    });
    clients.push(made);
    return made;
  };
  const bob = { mechanism: 'DIGEST-MD5', username: 'bob', password: 'bob-secret' } as const;

  before(async () => {
    server = await TestingServer.start({ sasl: { users: { bob: 'bob-secret' }, required: true } });
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server.close();
  });

  it('a client without SASL: its first request gets a terminal AuthFailedError naming the cause, not a hang', async (t) => {
    const c = client({ connectionTimeoutMs: 5000 });
    // The handshake itself is accepted; the server refuses the first request after it.
    await c.start({ timeoutMs: timing.ms(10_000) });
    const began = performance.now();
    const error = await c.exists('/').then(
      () => assert.fail('exists resolved'),
      (e: unknown) => e,
    );
    t.diagnostic(`refused in ${(performance.now() - began).toFixed(1)} ms`);
    assert.ok(isAuthFailed(error), String(error));
    assert.match((error as Error).message, /requires SASL/);
    assert.equal((error as ZooKeeperError).cause instanceof Error, true);
    assert.equal(
      ((error as ZooKeeperError).cause as ZooKeeperError).code,
      'SESSION_CLOSED_REQUIRE_SASL_AUTH',
    );
    await assert.rejects(c.exists('/'), (e) => e === error);
    assert.equal(c.connectionState, ConnectionState.LOST);
  });

  it('a wrong password: start() rejects with AuthFailedError caused by SESSION_CLOSED_REQUIRE_SASL_AUTH', async () => {
    const c = client({
      sasl: { mechanism: 'DIGEST-MD5', username: 'bob', password: 'wrong' },
    });
    const error = await c.start({ timeoutMs: timing.ms(10_000) }).then(
      () => assert.fail('start() resolved'),
      (e: unknown) => e,
    );
    assert.ok(isAuthFailed(error), String(error));
    assert.equal(
      ((error as ZooKeeperError).cause as ZooKeeperError).code,
      'SESSION_CLOSED_REQUIRE_SASL_AUTH',
    );
  });

  it('with SASL: operations, and after a server restart the watches nzc re-sends (SetWatches) go out after SASL', async () => {
    const path = uniquePath('sasl-required');
    const mechanism = new RecordingMechanism('bob', 'bob-secret');
    const c = client({ sasl: mechanism, sessionTimeoutMs: 20_000 });
    await c.start({ timeoutMs: timing.ms(10_000) });
    await c.create(path, { data: Buffer.from('v1') });
    let fire!: (event: WatchedEvent) => void;
    const fired = new Promise<WatchedEvent>((resolve) => {
      fire = resolve;
    });
    // The watch is registered before the restart, so only SetWatches can bring it back (a read
    // still in flight would be retried after the restart and could see the write below).
    await c.getData(path, { watch: fire });
    const reconnected = new Promise<void>((resolve) => {
      const off = c.on('stateChanged', (state) => {
        if (state === ConnectionState.RECONNECTED) {
          off();
          resolve();
        }
      });
    });
    await server.restart();
    await reconnected;
    assert.equal(mechanism.starts, 2);
    // Had anything (SetWatches, a ping) reached the server before SASL, it would have closed
    // the session with SESSION_CLOSED_REQUIRE_SASL_AUTH and the client would be AUTH_FAILED.
    const writer = client({ sasl: bob });
    await writer.start({ timeoutMs: timing.ms(10_000) });
    await writer.setData(path, Buffer.from('v2'));
    const event = await fired;
    assert.equal(event.type, 'NODE_DATA_CHANGED');
    assert.equal((await c.getData(path)).data.toString(), 'v2');
    assert.equal(c.connectionState, ConnectionState.RECONNECTED);
  });
});
