import type { ZooKeeperErrorCodeName } from './zookeeper-error-code.js';

/**
 * The codes a retry loop may retry: the operation may well succeed on a healthy connection.
 * Curator's `RetryLoop.isRetryException` retries exactly these; everything else (NO_NODE,
 * BAD_VERSION, NO_AUTH, ...) would fail the same way again.
 */
const RETRYABLE_CODES: ReadonlySet<ZooKeeperErrorCodeName> = new Set<ZooKeeperErrorCodeName>([
  'CONNECTION_LOSS',
  'OPERATION_TIMEOUT',
  'SESSION_MOVED',
  'SESSION_EXPIRED',
]);

/**
 * Whether errors with this code are retryable: true exactly for `CONNECTION_LOSS`,
 * `OPERATION_TIMEOUT`, `SESSION_MOVED` and `SESSION_EXPIRED`.
 */
export function isRetryableCode(code: ZooKeeperErrorCodeName): boolean {
  return RETRYABLE_CODES.has(code);
}

/**
 * Marks our errors with a registry symbol so the predicates also recognise errors made by
 * another copy of this package (two versions in one node_modules tree), where `instanceof`
 * fails. Internal: not exported from the package.
 */
export const ZOOKEEPER_ERROR_BRAND: unique symbol = Symbol.for(
  '@zkrecipes/framework:ZooKeeperError',
);

/** Options of {@link ZooKeeperError}; `cause` is the standard ES2022 one. */
export interface ZooKeeperErrorOptions extends ErrorOptions {
  /** The number the server sent, when there was one. Default: none (our own code). */
  zkCode?: number | undefined;
  /** The znode path the failed operation was about. Default: none. */
  path?: string | undefined;
  /** Added to the message after the code and path, e.g. `'parent node does not exist'`. */
  detail?: string | undefined;
}

/**
 * The one base class of every error the framework throws for ZooKeeper reasons. Branch on it
 * with the predicates (`isNoNode(err)`, `isRetryable(err)`) rather than comparing codes by hand.
 *
 * The message reads `CODE (number): path - detail`, leaving out what is missing:
 * `NO_NODE (-101): /app/a`, `INVALID_ARGUMENT: path must be a string; got number`.
 */
export class ZooKeeperError extends Error {
  /** Always `'ZooKeeperError'`, so logs and `err.name` checks tell this error apart. */
  override name = 'ZooKeeperError';
  /** ZooKeeper's name for the error (`'NO_NODE'`), or one of ours (`'CLOSED'`). */
  readonly code: ZooKeeperErrorCodeName;
  /** The wire number when the server (or the ZooKeeper client library) sent one. */
  readonly zkCode: number | undefined;
  /** The znode path of the operation that failed, when known. */
  readonly path: string | undefined;
  /** True exactly for CONNECTION_LOSS, OPERATION_TIMEOUT, SESSION_MOVED and SESSION_EXPIRED. */
  readonly retryable: boolean;
  /** The words after the code and path in the message, when there were any. */
  readonly detail: string | undefined;

  constructor(code: ZooKeeperErrorCodeName, options: ZooKeeperErrorOptions = {}) {
    // Only pass `cause` when there is one, so `'cause' in err` stays meaningful.
    super(
      formatMessage(code, options),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.code = code;
    this.zkCode = options.zkCode;
    this.path = options.path;
    this.retryable = isRetryableCode(code);
    this.detail = options.detail;
  }
}

Object.defineProperty(ZooKeeperError.prototype, ZOOKEEPER_ERROR_BRAND, { value: true });

function formatMessage(code: ZooKeeperErrorCodeName, options: ZooKeeperErrorOptions): string {
  const head = options.zkCode === undefined ? code : `${code} (${options.zkCode})`;
  const { path, detail } = options;
  if (path === undefined) return detail ? `${head}: ${detail}` : head;
  const shown = `${head}: ${displayPath(path)}`;
  return detail ? `${shown} - ${detail}` : shown;
}

/** Paths longer than this are shortened in messages; the `path` property keeps them whole. */
const MAX_SHOWN_PATH_LENGTH = 200;

// A path that failed validation may hold control characters, or be huge; quote or shorten it so
// the message stays on one readable line and still shows what was really there.
function displayPath(path: string): string {
  const shown =
    path.length > MAX_SHOWN_PATH_LENGTH
      ? `${path.slice(0, MAX_SHOWN_PATH_LENGTH)}... (${path.length} characters)`
      : path;
  // eslint-disable-next-line no-control-regex
  if (!/[\u0000-\u001f\u007f-\u009f]/.test(shown) && path !== '') return shown;
  // JSON escapes only U+0000-U+001F; DEL and the C1 controls would still print raw.
  return JSON.stringify(shown).replace(
    /[\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
