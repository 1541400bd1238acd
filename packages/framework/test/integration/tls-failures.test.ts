import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TestingServer, TlsMaterial, timing } from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import type { FrameworkOptions } from '../../src/create-framework.js';
import { ConnectionLossError } from '../../src/errors/zookeeper-error-classes.js';
import { silentLogger } from '../../src/logging/silent-logger.js';

const CONNECTION_TIMEOUT_MS = 3000;
/** Well before the timeout: the rejection came from the TLS failure, not from the wait's end. */
const AT_ONCE_MS = CONNECTION_TIMEOUT_MS * 0.8;

/** Starts a client that waits connectionTimeoutMs for its first connection: the rejection and how long it took. */
async function failedStart(
  options: FrameworkOptions,
): Promise<{ error: ConnectionLossError; tookMs: number; health: unknown }> {
  const client = createFramework({
    sessionTimeoutMs: 6000,
    connectionTimeoutMs: CONNECTION_TIMEOUT_MS,
    logger: silentLogger,
    ...options,
  });
  const started = performance.now();
  const error = await client.start({ timeoutMs: CONNECTION_TIMEOUT_MS }).then(
    () => undefined,
    (e: unknown) => e,
  );
  const tookMs = performance.now() - started;
  const health = client.health().lastConnectionError;
  await client.close();
  assert.ok(
    error instanceof ConnectionLossError,
    `expected ConnectionLossError, got ${String(error)}`,
  );
  return { error, tookMs, health };
}

function causeCode(error: Error): unknown {
  return (error.cause as { code?: unknown } | undefined)?.code;
}

describe('TLS failures: start() rejects with a ConnectionLossError naming the TLS cause', () => {
  let material: TlsMaterial;
  let otherCa: TlsMaterial;
  let server: TestingServer;
  before(async () => {
    [material, otherCa] = await Promise.all([TlsMaterial.create(), TlsMaterial.create()]);
    server = await TestingServer.start({ tls: { material } });
    // A fresh server's first TLS handshake is slow (about 1 s of JIT on 2 cores): done here
    // once, so that the timed rejections below measure the client, not the server's warm-up.
    const warm = createFramework({
      connectString: server.secureConnectString,
      tls: { ca: material.caCert },
      logger: silentLogger,
    });
    await warm.start({ timeoutMs: 10_000 });
    await warm.close();
  });
  after(async () => {
    await server.close();
    await material.close();
    await otherCa.close();
  });

  it('a server certificate from another CA: rejected at once (UNABLE_TO_VERIFY_LEAF_SIGNATURE), not after the timeout', async () => {
    const { error, tookMs, health } = await failedStart({
      connectString: server.secureConnectString,
      tls: { ca: otherCa.caCert },
    });
    assert.equal(causeCode(error), 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    assert.match(
      error.message,
      new RegExp(
        `no TLS connection; ${server.secureConnectString}: .*UNABLE_TO_VERIFY_LEAF_SIGNATURE`,
      ),
    );
    assert.ok(tookMs < AT_ONCE_MS, `rejected after ${Math.round(tookMs)} ms`);
    assert.deepEqual(
      { server: (health as { server: string }).server, code: (health as { code: string }).code },
      { server: server.secureConnectString, code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' },
    );
  });

  it('tls: true (Node default CAs) against a private CA: rejected at once, the same cause', async () => {
    const { error, tookMs } = await failedStart({
      connectString: server.secureConnectString,
      tls: true,
    });
    assert.equal(causeCode(error), 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    assert.ok(tookMs < AT_ONCE_MS, `rejected after ${Math.round(tookMs)} ms`);
  });

  it('a certificate not naming the host: rejected at once (ERR_TLS_CERT_ALTNAME_INVALID); the right servername connects', async () => {
    const { error, tookMs } = await failedStart({
      connectString: server.secureConnectString,
      tls: { ca: material.caCert, servername: 'zk.example.com' },
    });
    assert.equal(causeCode(error), 'ERR_TLS_CERT_ALTNAME_INVALID');
    assert.match(error.message, /zk\.example\.com.*ERR_TLS_CERT_ALTNAME_INVALID/);
    assert.ok(tookMs < AT_ONCE_MS, `rejected after ${Math.round(tookMs)} ms`);
    const named = createFramework({
      connectString: server.secureConnectString,
      tls: { ca: material.caCert, servername: 'localhost' },
      logger: silentLogger,
    });
    await named.start({ timeoutMs: timing.ms(10_000) });
    await named.close();
  });

  it('a tls function that throws: rejected at once (ERR_TLS_OPTIONS), its error kept as the cause', async () => {
    const { error, tookMs } = await failedStart({
      connectString: server.secureConnectString,
      tls: () => {
        throw new Error('certificate file missing');
      },
    });
    assert.equal(causeCode(error), 'ERR_TLS_OPTIONS');
    assert.match(error.message, /certificate file missing/);
    assert.ok(tookMs < AT_ONCE_MS, `rejected after ${Math.round(tookMs)} ms`);
  });

  it('a plaintext client against the TLS port: rejected within connectionTimeoutMs, the message pointing at TLS', async () => {
    const { error, tookMs } = await failedStart({ connectString: server.secureConnectString });
    assert.match(error.message, /TLS port\? then give the tls option/);
    assert.ok(
      tookMs < CONNECTION_TIMEOUT_MS + timing.ms(1000),
      `rejected after ${Math.round(tookMs)} ms`,
    );
  });

  it('a TLS client against the plaintext port: rejected within connectionTimeoutMs, the message naming the TLS handshake', async () => {
    const { error, tookMs } = await failedStart({
      connectString: server.connectString,
      tls: { ca: material.caCert },
    });
    assert.match(error.message, /during the TLS handshake \(is it a TLS port\?\)/);
    assert.ok(
      tookMs < CONNECTION_TIMEOUT_MS + timing.ms(1000),
      `rejected after ${Math.round(tookMs)} ms`,
    );
  });

  it('a client started without waiting keeps retrying a TLS failure in the background and reports it in health()', async () => {
    const client = createFramework({
      connectString: server.secureConnectString,
      tls: { ca: otherCa.caCert },
      logger: silentLogger,
    });
    await client.start();
    try {
      assert.equal(await client.blockUntilConnected({ timeoutMs: 1000 }), false);
      assert.equal(client.health().lastConnectionError?.code, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    } finally {
      await client.close();
    }
  });
});
