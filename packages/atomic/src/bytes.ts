import { describeValue } from '@zkrecipes/framework/recipe-support';
import { InvalidArgumentError, validateData } from '@zkrecipes/framework';

/** Checks a value argument: a Buffer or Uint8Array within ZooKeeper's node size limit. */
export function checkBytes(name: string, value: unknown): Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new InvalidArgumentError(
      `${name} must be a Buffer or Uint8Array; got ${describeValue(value)}`,
    );
  }
  validateData(value);
  return value;
}

/** True when both hold the same bytes (Java's `Arrays.equals`). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
