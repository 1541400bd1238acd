// Curator's GzipCompressionProvider, byte for byte (see docs/framework/operations.md,
// "Compression"): a 10-byte header with no name, no modification time and OS byte 0, then raw
// DEFLATE at zlib's default level, window and memory level, then the CRC-32 and the length.
//
// The DEFLATE bytes come from pako, a JavaScript port of zlib, with zlib's classic hash: they
// are what a JVM's zlib writes. Node's bundled zlib is Chromium's, whose different hashing and
// block sizes give other (equally valid) bytes once the data is larger than a few hundred
// bytes. Reading needs no such care: any gzip decodes the same, so Node's own zlib reads.
import { Buffer } from 'node:buffer';
import { crc32, gunzipSync } from 'node:zlib';
import { deflateRaw } from 'pako';
import type { CompressionProvider } from './compression-provider.js';

/**
 * The gzip header Curator 5.4 writes (java.util.zip.GZIPOutputStream's): magic 1f 8b, method
 * 8 (deflate), no flags, modification time 0, no extra flags, OS 0.
 */
const GZIP_HEADER = Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0);
const TRAILER_BYTES = 8;

/** java.util.zip.Deflater(DEFAULT_COMPRESSION, nowrap = true): level 6, 32 KiB window, memLevel 8. */
const DEFLATE_OPTIONS = {
  level: 6,
  windowBits: 15,
  memLevel: 8,
  strategy: 0,
  legacyHash: true,
} as const;

/**
 * Gzip, as Curator's `GzipCompressionProvider` (the default compression provider of Curator and
 * of createFramework): what it writes is byte for byte what Curator 5.4 writes for the same
 * data, and it reads whatever gzip Curator (any version) or the `gzip` tool writes.
 *
 * ```ts
 * const gzip = new GzipCompressionProvider();
 * const stored = gzip.compress('/config', Buffer.from('{"replicas":3}'));
 * gzip.decompress('/config', stored).toString(); // '{"replicas":3}'
 * ```
 */
export class GzipCompressionProvider implements CompressionProvider {
  /** The gzip form of `data` (`path` is not used). */
  compress(_path: string, data: Uint8Array): Buffer {
    const body = deflateRaw(data, DEFLATE_OPTIONS);
    const out = Buffer.allocUnsafe(GZIP_HEADER.length + body.length + TRAILER_BYTES);
    out.set(GZIP_HEADER, 0);
    out.set(body, GZIP_HEADER.length);
    const end = GZIP_HEADER.length + body.length;
    out.writeUInt32LE(crc32(data), end);
    // ISIZE: the length modulo 2^32, as gzip defines it.
    out.writeUInt32LE(data.length % 0x1_0000_0000, end + 4);
    return out;
  }

  /** The data `compressed` holds; throws (zlib's error) when it is not gzip or is corrupt. */
  decompress(_path: string, compressed: Uint8Array): Buffer {
    return gunzipSync(compressed);
  }
}
