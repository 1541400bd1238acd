import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { MAX_PATH_BYTES } from './validate-path.js';
import { describeValue } from '../errors/describe-value.js';

/** ZooKeeper's default jute.maxbuffer: the largest request packet a server accepts. */
export const JUTE_MAX_BUFFER_BYTES = 1_048_575;

/**
 * Room kept in the packet for everything besides the data: the path (up to
 * {@link MAX_PATH_BYTES}) plus 1024 bytes for the request header, length prefixes, flags or
 * version, and the ACL list (about 20 digest ACLs).
 */
const REQUEST_RESERVE_BYTES = MAX_PATH_BYTES + 1024;

/**
 * The most data one create or setData may carry: 1,043,455 bytes. The server closes the
 * connection on a packet over jute.maxbuffer (1,048,575 bytes by default), and the client sees
 * CONNECTION_LOSS and retries the same packet for as long as its policy lets it; so the data
 * limit is the packet limit minus a reserve for the path, header and ACLs.
 */
export const MAX_NODE_DATA_BYTES = JUTE_MAX_BUFFER_BYTES - REQUEST_RESERVE_BYTES;

/** Options of {@link validateData}. */
export interface ValidateDataOptions {
  /** The largest size accepted, in bytes. Default: {@link MAX_NODE_DATA_BYTES}. */
  maxBytes?: number | undefined;
  /** The node the data is for, named in the error. Default: none. */
  path?: string | undefined;
}

/**
 * Asserts `data` is node data we can send: a Buffer or other Uint8Array (or `undefined`, no
 * data) of at most `maxBytes` bytes. Fails before sending with an error naming both sizes.
 *
 * @example validateData(Buffer.from(json), { path: '/app/config' })
 */
export function validateData(
  data: unknown,
  options: ValidateDataOptions = {},
): asserts data is Uint8Array | undefined {
  const { maxBytes = MAX_NODE_DATA_BYTES, path } = options;
  if (data === undefined) return;
  if (!(data instanceof Uint8Array)) {
    throw new InvalidArgumentError(
      `data must be a Buffer or Uint8Array; got ${describeValue(data)}`,
      { path },
    );
  }
  if (data.byteLength > maxBytes) {
    throw new InvalidArgumentError(
      `data is ${data.byteLength} bytes; the limit is ${maxBytes} bytes (ZooKeeper's ` +
        `jute.maxbuffer, ${JUTE_MAX_BUFFER_BYTES} bytes, covers the whole request including ` +
        `the path and header)`,
      { path },
    );
  }
}
