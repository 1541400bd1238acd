// One error type for the raw session, shaped like the framework's errors (`code`, `path`,
// `cause`): a number is ZooKeeper's own code from the reply header or a connection-level
// equivalent; 'TIMEOUT' means our deadline passed with no reply, which is how a test
// tells a hung or blackholed server from one that answered with an error.
import { errorCodeName } from './protocol.js';

export type RawZooKeeperErrorCode = number | 'TIMEOUT';

export class RawZooKeeperError extends Error {
  override readonly name = 'RawZooKeeperError';
  readonly code: RawZooKeeperErrorCode;
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
