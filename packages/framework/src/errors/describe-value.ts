/**
 * Shows a rejected value in a message: `-1`, `NaN`, `"5" (a string)`, `undefined`, `an array`.
 * An array is named as such because `typeof` calls it an object, which confuses a message
 * that says an object was expected.
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return `${JSON.stringify(value)} (a string)`;
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  return `a value of type ${typeof value}`;
}
