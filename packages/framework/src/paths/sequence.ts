// ZooKeeper names a sequential node by appending its parent's child-version counter formatted as
// Java's "%010d". The counter is a signed 32-bit int: after 2147483647 comes -2147483648, and
// "%010d" writes negatives with their sign inside the width ("-000000001") or, from
// -1000000000 down, 11 characters wide ("-2147483648").

/** Options of {@link sequenceSuffix}. */
export interface SequenceSuffixOptions {
  /**
   * The name the node was created with (e.g. `'lock-'`), so the suffix is exactly what follows
   * it. Needed only for counters past the wrap at -1000000000 and below, whose 11-character
   * suffix cannot be told apart from a prefix ending in "-" without it. Default: none, the last
   * 10 characters are read.
   */
  prefix?: string | undefined;
}

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

function parseInt32(text: string): number | undefined {
  const value = Number(text);
  return Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX ? value : undefined;
}

/**
 * The sequence number ZooKeeper appended to a sequential node's name, as the signed 32-bit
 * number it is: `'lock-0000000042'` is 42, `'lock--000000001'` is -1 (after the wrap), and
 * `undefined` when the name does not end in a sequence.
 *
 * Without `prefix` the last 10 characters are read: 10 digits, or "-" and 9 digits. With
 * `prefix` the whole rest of the name must be the sequence, which also reads the 11-character
 * suffixes from -1000000000 to -2147483648 correctly.
 */
export function sequenceSuffix(
  name: string,
  options: SequenceSuffixOptions = {},
): number | undefined {
  const { prefix } = options;
  if (prefix !== undefined) {
    if (!name.startsWith(prefix)) return undefined;
    const rest = name.slice(prefix.length);
    return /^(?:\d{10}|-\d{9,10})$/.test(rest) ? parseInt32(rest) : undefined;
  }
  const last = name.slice(-10);
  return /^(?:\d{10}|-\d{9})$/.test(last) ? parseInt32(last) : undefined;
}

/**
 * Plain signed order of two sequence numbers, for `Array.prototype.sort`: negative when `a`
 * comes first. After the counter wraps, the newest nodes (negative numbers) sort first; use
 * {@link compareSequenceWrapping} when that can happen.
 */
export function compareSequence(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Wrap-aware order (serial-number arithmetic over 32 bits, as in RFC 1982): `a` comes before
 * `b` when counting up from `a`, wrapping from 2147483647 to -2147483648, reaches `b` in fewer
 * than 2^31 steps. So 2147483647 comes before -2147483648, and -2147483648 before 0.
 *
 * It is a consistent sort order only when all compared numbers lie within 2^31 - 1 steps of
 * each other (true of the live children of one parent unless it has seen more than two billion
 * creates and deletes while one of them lived). Exactly 2^31 apart, it falls back to plain order.
 */
export function compareSequenceWrapping(a: number, b: number): number {
  // (a - b) is exact in a double; `| 0` reduces it modulo 2^32 into the signed 32-bit range.
  const distance = (a - b) | 0;
  if (distance === INT32_MIN) return compareSequence(a, b);
  return distance < 0 ? -1 : distance > 0 ? 1 : 0;
}
