import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { FaultProxy, TestingServer, uniquePath } from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { op } from '../../src/client/transaction-op.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { ExponentialBackoffRetry } from '../../src/retry/exponential-backoff-retry.js';
import { GzipCompressionProvider } from '../../src/compression/gzip-compression-provider.js';
import type { CompressionProvider } from '../../src/compression/compression-provider.js';
import { MAX_NODE_DATA_BYTES } from '../../src/paths/validate-data.js';
import { DataInconsistencyError } from '../../src/errors/zookeeper-error-classes.js';
import { isInvalidArgument, isOutcomeUnknown } from '../../src/errors/predicates.js';

const gzip = new GzipCompressionProvider();
const text = (n: number): Buffer => Buffer.from('zookeeper curator compression '.repeat(n));

describe('compression (real server)', () => {
  let server: TestingServer;
  let proxy: FaultProxy;
  let raw: FrameworkClient;
  let wide: FrameworkClient;
  let flaky: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    proxy = await FaultProxy.start({ targetPort: server.port });
    raw = createFramework({ connectString: server.connectString, logger: silentLogger });
    wide = createFramework({
      connectString: server.connectString,
      logger: silentLogger,
      compressionEnabled: true,
    });
    flaky = createFramework({
      connectString: proxy.connectString,
      sessionTimeoutMs: 10_000,
      retryPolicy: new ExponentialBackoffRetry({ baseSleepMs: 20, maxRetries: 10 }),
      logger: silentLogger,
    });
    await Promise.all([raw.start(), wide.start(), flaky.start()]);
  });
  after(async () => {
    await Promise.all([raw.close(), wide.close(), flaky.close()]);
    await proxy.close();
    await server.close();
  });

  it('compressed: true on create, setData and getData round-trips; the server holds gzip', async () => {
    const path = uniquePath('per-call');
    const first = text(40);
    await raw.create(path, { data: first, compressed: true });
    const stored = (await raw.getData(path)).data;
    assert.deepEqual(stored, gzip.compress(path, first));
    assert.ok(stored.length < first.length / 4, `${stored.length} bytes stored`);
    assert.deepEqual((await raw.getData(path, { compressed: true })).data, first);
    const second = text(80);
    const stat = await raw.setData(path, second, { compressed: true });
    assert.equal(stat.dataLength, gzip.compress(path, second).length);
    assert.deepEqual(gunzipSync((await raw.getData(path)).data), second);
    assert.deepEqual((await raw.getData(path, { compressed: true })).data, second);
    // Empty data compresses too (to Curator's 20-byte empty gzip).
    await raw.setData(path, Buffer.alloc(0), { compressed: true });
    assert.equal((await raw.getData(path)).data.length, 20);
    assert.equal((await raw.getData(path, { compressed: true })).data.length, 0);
  });

  it('compressionEnabled compresses every write and read; compressed: false opts out', async () => {
    assert.equal(wide.compressionEnabled, true);
    assert.equal(raw.compressionEnabled, false);
    const path = uniquePath('wide');
    const data = text(30);
    await wide.create(path, { data });
    assert.deepEqual(gunzipSync((await raw.getData(path)).data), data);
    assert.deepEqual((await wide.getData(path)).data, data);
    await wide.setData(path, text(5));
    assert.deepEqual((await raw.getData(path, { compressed: true })).data, text(5));
    await wide.setData(path, Buffer.from('plain'), { compressed: false });
    assert.equal((await raw.getData(path)).data.toString(), 'plain');
    assert.equal((await wide.getData(path, { compressed: false })).data.toString(), 'plain');
  });

  it('transaction ops compress per op and client-wide', async () => {
    const parent = await raw.create(uniquePath('tx'));
    await raw.transaction([
      op.create(`${parent}/a`, { data: text(10), compressed: true }),
      op.create(`${parent}/b`, { data: text(10) }),
    ]);
    assert.deepEqual(gunzipSync((await raw.getData(`${parent}/a`)).data), text(10));
    assert.deepEqual((await raw.getData(`${parent}/b`)).data, text(10));
    await wide.transaction([
      op.setData(`${parent}/b`, text(20)),
      op.setData(`${parent}/a`, Buffer.from('x'), { compressed: false }),
    ]);
    assert.deepEqual(gunzipSync((await raw.getData(`${parent}/b`)).data), text(20));
    assert.equal((await raw.getData(`${parent}/a`)).data.toString(), 'x');
  });

  it('reading data that is not compressed as compressed rejects DataInconsistencyError', async () => {
    const path = await raw.create(uniquePath('plain'), { data: Buffer.from('{"a":1}') });
    await assert.rejects(wide.getData(path), (error: unknown) => {
      assert.ok(error instanceof DataInconsistencyError);
      assert.equal(error.code, 'DATA_INCONSISTENCY');
      assert.equal(error.path, path);
      assert.equal(error.retryable, false);
      assert.ok(error.cause instanceof Error);
      return true;
    });
    // The node is untouched and still readable as it is.
    assert.equal((await wide.getData(path, { compressed: false })).data.toString(), '{"a":1}');
  });

  it('the data limit applies to the bytes sent: compressible data over it is accepted', async () => {
    const big = Buffer.alloc(MAX_NODE_DATA_BYTES * 2, 'a');
    const path = await raw.create(uniquePath('big'), { data: big, compressed: true });
    assert.deepEqual((await raw.getData(path, { compressed: true })).data, big);
    const incompressible = randomBytes(MAX_NODE_DATA_BYTES);
    await assert.rejects(raw.setData(path, incompressible, { compressed: true }), (error) => {
      assert.ok(isInvalidArgument(error), String(error));
      assert.match(String(error), /the limit is/);
      return true;
    });
    await assert.rejects(raw.create(path, { data: big }), (error) => isInvalidArgument(error));
  });

  it('the provider gets the path in the namespace; a bad option or provider is refused', async () => {
    const seen: string[] = [];
    const reversing: CompressionProvider = {
      compress: (path, data) => (seen.push(`c ${path}`), Buffer.from(data).reverse()),
      decompress: (path, data) => (seen.push(`d ${path}`), Buffer.from(data).reverse()),
    };
    const client = createFramework({
      connectString: server.connectString,
      logger: silentLogger,
      namespace: uniquePath('ns').slice(1),
      compressionProvider: reversing,
    });
    await client.start();
    try {
      assert.equal(client.compressionProvider, reversing);
      await client.create('/n', { data: Buffer.from('abc'), compressed: true });
      assert.equal((await client.getData('/n')).data.toString(), 'cba');
      assert.equal((await client.getData('/n', { compressed: true })).data.toString(), 'abc');
      assert.deepEqual(seen, ['c /n', 'd /n']);
      await assert.rejects(
        client.getData('/n', { compressed: 'yes' as unknown as boolean }),
        (error) => isInvalidArgument(error),
      );
    } finally {
      await client.close();
    }
    assert.throws(
      () =>
        createFramework({
          connectString: server.connectString,
          compressionProvider: {
            compress: () => Buffer.alloc(0),
          } as unknown as CompressionProvider,
        }),
      (error) => isInvalidArgument(error),
    );
  });

  it('a compressed create and setData whose reply is lost are answered as any write', async () => {
    const path = uniquePath('lost');
    const data = text(50);
    const lostCreate = proxy.loseReply({ ops: ['multi'], pathPrefix: path });
    const created = await flaky.create(path, { data, compressed: true, idempotent: true });
    assert.equal((await lostCreate).err, 0, 'the server applied the create');
    assert.equal(created, path);
    assert.deepEqual((await raw.getData(path, { compressed: true })).data, data);

    const lostSet = proxy.loseReply({ ops: ['setData'], pathPrefix: path });
    const stat = await flaky.setData(path, text(60), { compressed: true });
    assert.equal((await lostSet).err, 0);
    assert.ok(stat.version >= 1);
    assert.deepEqual((await raw.getData(path, { compressed: true })).data, text(60));

    // Versioned: idempotent answers exactly; without it the retry's BAD_VERSION is not trusted.
    const lostExact = proxy.loseReply({ ops: ['multi'], pathPrefix: '/' });
    const exact = await flaky.setData(path, text(70), {
      compressed: true,
      version: stat.version,
      idempotent: true,
    });
    assert.equal((await lostExact).err, 0);
    assert.equal(exact.version, stat.version + 1);
    const lostPlain = proxy.loseReply({ ops: ['setData'], pathPrefix: path });
    const [plain] = await Promise.allSettled([
      flaky.setData(path, text(80), { compressed: true, version: exact.version }),
    ]);
    assert.equal((await lostPlain).err, 0);
    assert.equal(plain.status, 'rejected');
    assert.ok(isOutcomeUnknown(plain.reason, 'BAD_VERSION'), String(plain.reason));
    assert.deepEqual((await raw.getData(path, { compressed: true })).data, text(80));
  });
});
