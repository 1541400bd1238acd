import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Buffer } from 'node:buffer';
import { gzipSync } from 'node:zlib';
import { GzipCompressionProvider } from '../../src/compression/gzip-compression-provider.js';

const gzip = new GzipCompressionProvider();

describe('GzipCompressionProvider', () => {
  it("compresses empty data to Curator's 20 bytes (COMPRESSED_EMPTY_BYTES with OS 0)", () => {
    // Curator: {31, -117, 8, 0, 0, 0, 0, 0, 0, OS_BIT, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0}
    const expected = '1f8b0800000000000000' + '0300' + '0000000000000000';
    assert.equal(gzip.compress('/a', Buffer.alloc(0)).toString('hex'), expected);
  });

  it('writes the header of java.util.zip.GZIPOutputStream: no flags, no mtime, OS 0; then CRC and length', () => {
    const data = Buffer.from('hello hello hello');
    const out = gzip.compress('/a', data);
    assert.equal(out.subarray(0, 10).toString('hex'), '1f8b0800000000000000');
    assert.equal(out.readUInt32LE(out.length - 4), data.length);
    // The same DEFLATE body as Node's zlib for short input; Node writes OS 3 (Unix).
    const node = gzipSync(data);
    assert.deepEqual(out.subarray(10), node.subarray(10));
    assert.equal(node[9], 3);
  });

  it('reads any gzip: OS 255 (Curator 5.6+ on Java 16+), a file name, Node and the gzip tool', () => {
    const data = Buffer.from('{"replicas":3}'.repeat(100));
    const newer = Buffer.from(gzip.compress('/a', data));
    newer[9] = 0xff;
    assert.deepEqual(gzip.decompress('/a', newer), data);
    const named = gzipSync(data);
    named[3] = 0x08; // FNAME: a zero-terminated name after the header
    const withName = Buffer.concat([
      named.subarray(0, 10),
      Buffer.from('a.json\0'),
      named.subarray(10),
    ]);
    assert.deepEqual(gzip.decompress('/a', withName), data);
    assert.deepEqual(gzip.decompress('/a', gzipSync(data, { level: 9 })), data);
  });

  it('throws on data that is not gzip, empty or truncated', () => {
    const good = gzip.compress('/a', Buffer.from('x'.repeat(100)));
    for (const bad of [
      Buffer.from('plain text'),
      Buffer.alloc(0),
      good.subarray(0, good.length - 4),
    ]) {
      assert.throws(() => gzip.decompress('/a', bad), Error);
    }
  });
});
