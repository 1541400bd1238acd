// One error type for the raw session, shaped like the framework's errors (`code`, `path`,
// `cause`): a number is ZooKeeper's own code from the reply header or a connection-level
// equivalent; 'TIMEOUT' means our deadline passed with no reply, which is how a test
// tells a hung or blackholed server from one that answered with an error.
import { errorCodeName } from './protocol.js';

/**
 * A {@link RawZooKeeperError}'s code: ZooKeeper's error number (see {@link ZooKeeperErrorCode}),
 * or `'TIMEOUT'` when no reply came before the request's deadline.
 */
export type RawZooKeeperErrorCode = number | 'TIMEOUT';

/**
 * A failed request of a {@link RawZooKeeperSession}: the server's error reply, a dead
 * connection, or a missed deadline (`code` `'TIMEOUT'`). The message starts with the code's name.
 */
export class RawZooKeeperError extends Error {
  /** Always `'RawZooKeeperError'`, so logs and `err.name` checks tell this error apart. */
  override readonly name = 'RawZooKeeperError';
  /** ZooKeeper's error number, e.g. `-101` for NO_NODE, or `'TIMEOUT'`. */
  readonly code: RawZooKeeperErrorCode;
  /** The path of the failed request; undefined for session-level requests. */
  readonly path: string | undefined;

  constructor(
    code: RawZooKeeperErrorCode,
    message: string,
    options: { path?: string; cause?: unknown } = {},
  ) {
    const label = code === 'TIMEOUT' ? 'TIMEOUT' : `${errorCodeName(code)} (${code})`;
    super(`${label}: ${message}`, { cause: options.cause });
    this.code = code;
    this.path = options.path;
  }
}

/** True when `error` is a RawZooKeeperError with the given code. */
export function hasRawErrorCode(error: unknown, code: RawZooKeeperErrorCode): boolean {
  return error instanceof RawZooKeeperError && error.code === code;
}
