// Node data through the client's compression provider: compressed before it is sent, its
// size checked on the bytes sent; decompressed after a read, a failure a typed error. Calls
// that do not compress take none of this (`compressorFor` is undefined for them).
import { Buffer } from 'node:buffer';
import type { CompressionProvider } from '../compression/compression-provider.js';
import { DataInconsistencyError, InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { describeValue } from '../errors/describe-value.js';
import { validateData } from '../paths/validate-data.js';
import { checkFlag, toNodeData } from './check-operation-input.js';

/** The client-wide compression settings (createFramework's options). */
export interface DataCompression {
  readonly provider: CompressionProvider;
  /** Curator's `enableCompression()`: writes compress and reads decompress unless a call says. */
  readonly enabled: boolean;
}

/**
 * The provider a call compresses (or decompresses) with, or undefined when it does not: its
 * `compressed` option when given, else the client's `compressionEnabled`.
 */
export function compressorFor(
  compression: DataCompression,
  compressed: unknown,
): CompressionProvider | undefined {
  checkFlag('compressed', compressed);
  return (compressed ?? compression.enabled) ? compression.provider : undefined;
}

/**
 * Validates node data (see `toNodeData`) and returns the Buffer to send: the data itself, or
 * with `compressor` its compressed form, whose size is what the limit applies to (the server
 * sees those bytes). `path` is the caller's path, given to the provider as Curator does.
 */
export function toSentData(
  data: unknown,
  path: string,
  optional: boolean,
  compressor: CompressionProvider | undefined,
): Buffer {
  if (compressor === undefined) return toNodeData(data, path, optional);
  // The type of the data first; its size counts only once compressed.
  if (data === undefined && !optional) return toNodeData(data, path, optional);
  validateData(data, { path, maxBytes: Number.POSITIVE_INFINITY });
  const sent: unknown = compressor.compress(path, asBuffer(data ?? new Uint8Array(0)));
  if (!(sent instanceof Uint8Array)) {
    throw new InvalidArgumentError(
      `compressionProvider.compress must return a Uint8Array; got ${describeValue(sent)}`,
      { path },
    );
  }
  return toNodeData(sent, path, false);
}

/**
 * `data` decompressed with `compressor`. Data the provider cannot read (a node written
 * uncompressed, or by another provider) throws DataInconsistencyError naming `errorPath`, with
 * the provider's error as `cause`.
 */
export function decompressData(
  compressor: CompressionProvider,
  path: string,
  errorPath: string,
  data: Buffer,
): Buffer {
  let plain: unknown;
  try {
    plain = compressor.decompress(path, data);
  } catch (cause) {
    throw new DataInconsistencyError({
      path: errorPath,
      detail: `the data (${data.length} bytes) is not in the compression provider's format`,
      cause,
    });
  }
  if (!(plain instanceof Uint8Array)) {
    throw new DataInconsistencyError({
      path: errorPath,
      detail: `compressionProvider.decompress returned ${describeValue(plain)}, not a Uint8Array`,
    });
  }
  return asBuffer(plain);
}

function asBuffer(data: Uint8Array): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}
