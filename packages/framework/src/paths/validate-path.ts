import { Buffer } from 'node:buffer';
import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { describeValue } from '../errors/describe-value.js';

/**
 * The longest path we send, in UTF-8 bytes (a sequential node's 10-digit suffix included).
 * ZooKeeper has no path limit of its own; the path simply counts against the request's
 * 1 MB budget (jute.maxbuffer), and {@link MAX_NODE_DATA_BYTES} reserves room for a path this
 * long. 4096 is Linux's PATH_MAX: generous for real trees, small enough to keep the data budget.
 */
export const MAX_PATH_BYTES = 4096;

/** Options of {@link validatePath}. */
export interface ValidatePathOptions {
  /** Whether "/" itself is acceptable (fine for reads, not for create or delete). Default: true. */
  allowRoot?: boolean | undefined;
  /**
   * The path is the prefix of a sequential create: the server appends a counter, so "/a/" and
   * "/a/." are valid (ZooKeeper checks the path with a digit appended). Default: false.
   */
  sequential?: boolean | undefined;
}

const SLASH = 0x2f;
const DOT = 0x2e;

/** The character at `i` as a code point (an emoji is U+1F600, not its first surrogate). */
function describeCharacter(path: string, i: number): string {
  const point = path.codePointAt(i) ?? 0;
  return `U+${point.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Asserts `path` is a valid znode path by ZooKeeper's own rules (`PathUtils.validatePath`), so
 * bad input fails here with a precise InvalidArgumentError instead of at the server. Rejected:
 * not a string; empty; relative (no leading "/"); a trailing "/" (except the root); an empty
 * node name ("//"); "." or ".." as a node name; the null character and the characters
 * ZooKeeper forbids (U+0001-U+001F, U+007F-U+009F, U+D800-U+F8FF, U+FFF0-U+FFFF); longer than
 * {@link MAX_PATH_BYTES} UTF-8 bytes.
 *
 * @example validatePath('/app/locks/lock-', { sequential: true, allowRoot: false })
 */
export function validatePath(
  path: unknown,
  options: ValidatePathOptions = {},
): asserts path is string {
  const { allowRoot = true, sequential = false } = options;
  if (typeof path !== 'string') {
    throw new InvalidArgumentError(`path must be a string; got ${describeValue(path)}`);
  }
  if (path.length === 0) failPath(path, 'path must not be empty');
  if (path.charCodeAt(0) !== SLASH) {
    failPath(path, 'path must start with "/" (ZooKeeper has no relative paths)');
  }
  // Like ZooKeeper, check what the server will hold: a sequential path gets a digit appended,
  // so its last node name is never empty, "." or "..".
  if (!sequential) {
    if (path.length === 1) {
      if (!allowRoot) failPath(path, 'the root "/" is not allowed here; name a node below it');
      return;
    }
    if (path.charCodeAt(path.length - 1) === SLASH) failPath(path, 'path must not end with "/"');
  }

  // One pass, no substrings: this runs for every request a lock or a queue sends.
  const end = path.length;
  let segmentStart = 1;
  for (let i = 1; i <= end; i++) {
    const c = i < end ? path.charCodeAt(i) : SLASH;
    if (c === SLASH) {
      if (i === end && sequential) break;
      const length = i - segmentStart;
      if (length === 0) failPath(path, `empty node name ("//") at index ${i}`);
      if (
        length <= 2 &&
        path.charCodeAt(segmentStart) === DOT &&
        (length === 1 || path.charCodeAt(segmentStart + 1) === DOT)
      ) {
        const segment = path.slice(segmentStart, i);
        failPath(path, `"${segment}" is not allowed as a node name (index ${segmentStart})`);
      }
      segmentStart = i + 1;
    } else if (
      c < 0x20 ||
      (c >= 0x7f && c <= 0x9f) ||
      (c >= 0xd800 && (c <= 0xf8ff || c >= 0xfff0))
    ) {
      if (c === 0) failPath(path, `null character at index ${i}`);
      failPath(
        path,
        `character ${describeCharacter(path, i)} at index ${i} is not allowed by ZooKeeper`,
      );
    }
  }

  // The server's name for a sequential node is 10 digits longer than what we send. A UTF-16
  // unit is at most 3 UTF-8 bytes, so most paths need no count.
  const suffixBytes = sequential ? 10 : 0;
  if (path.length * 3 + suffixBytes <= MAX_PATH_BYTES) return;
  const bytes = Buffer.byteLength(path, 'utf8') + suffixBytes;
  if (bytes > MAX_PATH_BYTES) {
    failPath(
      path,
      `path is ${bytes} bytes in UTF-8${sequential ? ' with its sequence suffix' : ''}; ` +
        `the limit is ${MAX_PATH_BYTES} bytes`,
    );
  }
}

function failPath(path: string, detail: string): never {
  throw new InvalidArgumentError(detail, { path });
}
