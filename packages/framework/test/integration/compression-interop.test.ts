import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Buffer } from 'node:buffer';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JavaPeer, TestingServer, uniquePath } from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { op } from '../../src/client/transaction-op.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { GzipCompressionProvider } from '../../src/compression/gzip-compression-provider.js';

// dist/test/integration/*.test.js -> test/fixtures/*.java in the package's sources.
const peerSource = new URL('../../../test/fixtures/CuratorCompressionPeer.java', import.meta.url)
  .pathname;

/** Deterministic bytes (xorshift32), so a mismatch reproduces. */
function noise(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** Text-like bytes: words drawn from a small vocabulary, so DEFLATE finds matches of all lengths. */
function words(length: number, seed: number): Buffer {
  const vocabulary = ['zoo', 'keeper', 'curator', '"id":', 'leader', '/app/lock-', '\n', '{', '}'];
  const picks = noise(length, seed);
  let s = '';
  for (let i = 0; s.length < length; i++) s += `${vocabulary[(picks[i] ?? 0) % 9]} ${i % 97}`;
  return Buffer.from(s.slice(0, length));
}

const INPUTS: Record<string, Buffer> = {
  empty: Buffer.alloc(0),
  'one byte': Buffer.from('a'),
  'json 2 KiB': Buffer.from(
    JSON.stringify(Array.from({ length: 40 }, (_, i) => ({ id: i, host: `10.0.0.${i}` }))),
  ),
  'random 70,000 bytes': noise(70_000, 7),
  'text 300,000 bytes': words(300_000, 11),
  'mixed 1,000,000 bytes': Buffer.concat([words(600_000, 3), noise(400_000, 5)]),
};

const hex = (data: Buffer): string => data.toString('hex');

describe('compression interop with Apache Curator 5.4', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  let wide: FrameworkClient;
  let peer: JavaPeer;
  before(async () => {
    server = await TestingServer.start();
    client = createFramework({ connectString: server.connectString, logger: silentLogger });
    wide = createFramework({
      connectString: server.connectString,
      logger: silentLogger,
      compressionEnabled: true,
    });
    await Promise.all([client.start(), wide.start()]);
    peer = await JavaPeer.start({ source: peerSource, args: [server.connectString] });
  });
  after(async () => {
    await peer.close();
    await Promise.all([client.close(), wide.close()]);
    await server.close();
  });

  it("GzipCompressionProvider writes exactly the bytes of Curator's, empty and over 64 KiB included", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zkrecipes-gzip-'));
    const gzip = new GzipCompressionProvider();
    try {
      for (const [name, data] of Object.entries(INPUTS)) {
        const input = join(dir, 'in');
        const output = join(dir, 'out');
        writeFileSync(input, data);
        assert.equal(await peer.request(`gzip-file ${input} ${output}`), 'OK');
        const java = readFileSync(output);
        const ours = gzip.compress('/', data);
        assert.equal(ours.length, java.length, `${name}: length`);
        assert.ok(ours.equals(java), `${name}: identical bytes`);
        assert.ok(gzip.decompress('/', java).equals(data), `${name}: we read Curator's`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Curator writes with compressed() (create, setData, transaction); we read with compressed and client-wide', async () => {
    const parent = await client.create(uniquePath('from-java'));
    const data = INPUTS['text 300,000 bytes'] ?? Buffer.alloc(0);
    assert.equal(await peer.request(`create ${parent}/a ${hex(data)}`), 'OK');
    assert.ok((await client.getData(`${parent}/a`, { compressed: true })).data.equals(data));
    assert.ok((await wide.getData(`${parent}/a`)).data.equals(data));
    assert.equal(await peer.request(`set ${parent}/a 68656c6c6f`), 'OK');
    assert.equal((await wide.getData(`${parent}/a`)).data.toString(), 'hello');
    assert.equal(await peer.request(`tx ${parent}/b`), 'OK');
    assert.equal((await wide.getData(`${parent}/b`)).data.length, 0);
  });

  it('we write compressed (per call, transaction, client-wide); Curator reads with decompressed() and holds our exact bytes', async () => {
    const parent = await client.create(uniquePath('from-node'));
    const json = INPUTS['json 2 KiB'] ?? Buffer.alloc(0);
    const big = INPUTS['text 300,000 bytes'] ?? Buffer.alloc(0);
    await client.create(`${parent}/a`, { data: big, compressed: true });
    await client.transaction([op.create(`${parent}/b`, { data: json, compressed: true })]);
    await wide.create(`${parent}/c`, { data: json });
    await wide.setData(`${parent}/c`, Buffer.from('changed'));
    assert.equal(await peer.request(`get ${parent}/a`), `OK ${hex(big)}`);
    assert.equal(await peer.request(`get ${parent}/b`), `OK ${hex(json)}`);
    assert.equal(await peer.request(`get ${parent}/c`), `OK ${hex(Buffer.from('changed'))}`);
    // Both sides store the same bytes for the same data.
    assert.equal(await peer.request(`create ${parent}/d ${hex(big)}`), 'OK');
    const ours = (await client.getData(`${parent}/a`)).data;
    assert.equal(await peer.request(`get-raw ${parent}/d`), `OK ${hex(ours)}`);
  });
});
