import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TestingServer, TlsMaterial, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { op } from '../../src/client/transaction-op.js';
import { isInvalidArgument } from '../../src/errors/predicates.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { ConnectionState } from '../../src/state/connection-state.js';
import type { WatchedEvent } from '../../src/zk/zookeeper-types.js';

describe('TLS connection: every basic operation over a secure client port', () => {
  let material: TlsMaterial;
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    material = await TlsMaterial.create();
    server = await TestingServer.start({ tls: { material } });
    client = createFramework({
      connectString: server.secureConnectString,
      sessionTimeoutMs: 6000,
      connectionTimeoutMs: 3000,
      tls: { ca: material.caCert },
      logger: silentLogger,
    });
    await client.start({ timeoutMs: timing.ms(10_000) });
  });
  after(async () => {
    await client.close();
    await server.close();
    await material.close();
  });

  it('create, getData, setData, exists, getChildren, transaction and delete work over TLS', async () => {
    const path = uniquePath('tls-ops');
    await client.create(path, { data: Buffer.from('one') });
    assert.equal((await client.getData(path)).data.toString(), 'one');
    const stat = await client.setData(path, Buffer.from('two'));
    assert.equal(stat.version, 1);
    assert.notEqual(await client.exists(path), null);
    await client.create(`${path}/a`);
    await client.create(`${path}/b`);
    assert.deepEqual((await client.getChildren(path)).sort(), ['a', 'b']);
    const results = await client.transaction([
      op.create(`${path}/c`, { data: Buffer.from('c') }),
      op.setData(path, Buffer.from('three'), { version: 1 }),
      op.delete(`${path}/a`),
    ]);
    assert.equal(results.length, 3);
    assert.deepEqual((await client.getChildren(path)).sort(), ['b', 'c']);
    await client.delete(path, { deleteChildren: true });
    assert.equal(await client.exists(path), null);
  });

  it('a watch set over TLS fires on the change', async () => {
    const path = uniquePath('tls-watch');
    await client.create(path);
    const events: WatchedEvent[] = [];
    await client.getData(path, { watch: (event) => events.push(event) });
    await client.setData(path, Buffer.from('changed'));
    await waitFor(() => events.length === 1, { timeoutMs: timing.ms(5000) });
    assert.equal(events[0]?.type, 'NODE_DATA_CHANGED');
  });

  it('server stopped while on TLS: requests fail within their bounds, close() is prompt, and a restart reconnects over TLS', async () => {
    const path = uniquePath('tls-fault');
    await client.create(path);
    await server.stop();
    await waitFor(() => client.connectionState === ConnectionState.SUSPENDED, {
      timeoutMs: timing.ms(10_000),
    });
    const started = performance.now();
    const error = await client.getData(path, { signal: AbortSignal.timeout(1000) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error !== undefined, 'a read while the server is down must fail');
    assert.ok(performance.now() - started < timing.ms(4000), 'the read is bounded');
    await server.restart();
    await waitFor(() => client.connectionState === ConnectionState.RECONNECTED, {
      timeoutMs: timing.ms(15_000),
    });
    assert.notEqual(await client.exists(path), null);
  });

  it('server paused while on TLS: close() of a second client returns promptly', async () => {
    const other = createFramework({
      connectString: server.secureConnectString,
      sessionTimeoutMs: 6000,
      tls: { ca: material.caCert },
      logger: silentLogger,
    });
    await other.start({ timeoutMs: timing.ms(10_000) });
    await server.pause();
    try {
      const pending = other.exists('/').then(
        () => undefined,
        (e: unknown) => e,
      );
      const started = performance.now();
      await other.close();
      assert.ok(
        performance.now() - started < timing.ms(2500),
        'close() does not wait out the hung server',
      );
      assert.ok((await pending) !== undefined, 'the request in flight is failed by close()');
    } finally {
      server.resume();
    }
  });
});

describe('TLS option validation', () => {
  it('rejects what is not TLS options, address keys, and keys Node cannot use, with InvalidArgumentError', () => {
    for (const tls of [
      5,
      'yes',
      [],
      null,
      { host: 'x' },
      { port: 1 },
      { rejectUnauthorized: 'no' },
    ]) {
      assert.throws(
        () => createFramework({ connectString: '127.0.0.1:1', tls: tls as never }),
        (error: unknown) => isInvalidArgument(error) && /tls/.test((error as Error).message),
        `tls: ${JSON.stringify(tls)}`,
      );
    }
    assert.throws(
      () =>
        createFramework({ connectString: '127.0.0.1:1', tls: { key: 'not a key', cert: 'no' } }),
      (error: unknown) =>
        isInvalidArgument(error) && /Node cannot use/.test((error as Error).message),
    );
  });
});
