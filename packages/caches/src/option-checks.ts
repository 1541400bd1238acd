import { InvalidArgumentError } from '@zkrecipes/framework';

/** Throws unless `options` is undefined or a plain object (not an array, not a primitive). */
export function checkOptionsObject(options: unknown): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidArgumentError(`options must be an object; got ${describe(options)}`);
  }
}

/** `value` when it is a boolean, `fallback` when undefined; anything else throws. */
export function booleanOption(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') {
    throw new InvalidArgumentError(`${name} must be a boolean; got ${describe(value)}`);
  }
  return value;
}

/** `value` when it is a whole number >= 1, `fallback` when undefined; anything else throws. */
export function positiveIntegerOption(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new InvalidArgumentError(`${name} must be a whole number >= 1; got ${describe(value)}`);
  }
  return value;
}

/** Throws unless `listener` is a function. */
export function checkListener(listener: unknown): void {
  if (typeof listener !== 'function') {
    throw new InvalidArgumentError(`listener must be a function; got ${describe(listener)}`);
  }
}

/** A short description of a bad value for error messages. */
export function describe(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'bigint':
      return `${value}n`;
    case 'number':
    case 'boolean':
    case 'undefined':
    case 'symbol':
      return String(value);
    case 'function':
      return 'a function';
    default:
      return value === null ? 'null' : Array.isArray(value) ? 'an array' : 'an object';
  }
}
