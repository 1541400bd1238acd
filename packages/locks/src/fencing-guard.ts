// The resource's side of fencing, for a store kept in one process (a cache, a file, a test
// double): remember the highest token seen and refuse older ones. A database does the same
// with a condition on the row (see docs/recipes/locks.md, "Fencing tokens").
import { describeValue } from '@zkrecipes/framework/recipe-support';
import { InvalidArgumentError } from '@zkrecipes/framework';

/** A fencing token as holds give it: the bigint, or its decimal string (`fencingTokenString`). */
export type FencingTokenInput = bigint | string;

/** A token as a bigint; a decimal string (what JSON carried) is read back exactly. */
function tokenOf(token: FencingTokenInput): bigint {
  if (typeof token === 'bigint' && token >= 0n) return token;
  if (typeof token === 'string' && /^\d{1,20}$/.test(token)) return BigInt(token);
  throw new InvalidArgumentError(
    `a fencing token is a bigint >= 0 or its decimal string; got ${describeValue(token)}`,
  );
}

/**
 * Admits writes whose fencing token is at least the highest it has admitted, and refuses
 * older ones: a holder that lost its lock (or lease, or leadership) without knowing carries a
 * smaller token than whoever holds it now. Equal tokens are admitted, so one hold may write
 * several times. Tokens are compared as numbers, also when given as decimal strings
 * (`"10"` is newer than `"9"`; as strings it would not be).
 *
 * @example
 * const guard = new FencingGuard();
 * function write(record: Row, token: bigint): void {
 *   if (!guard.admit(token)) throw new Error('a newer holder wrote since');
 *   rows.set(record.id, record);
 * }
 */
export class FencingGuard {
  #highest: bigint | undefined;

  /** The highest token admitted so far; undefined before the first. */
  get highest(): bigint | undefined {
    return this.#highest;
  }

  /**
   * True, and remembered, when `token` is at least the highest admitted so far; false (and
   * nothing changes) when it is older. Throws InvalidArgumentError for what is not a token.
   */
  admit(token: FencingTokenInput): boolean {
    const value = tokenOf(token);
    if (this.#highest !== undefined && value < this.#highest) return false;
    this.#highest = value;
    return true;
  }
}
