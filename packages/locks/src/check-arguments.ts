// Argument checks shared by the locks. They run before anything is sent and fail with the
// framework's InvalidArgumentError, so callers branch on one error type for bad input.
import { InvalidArgumentError, validateData, validateTimeoutMs } from '@zkrecipes/framework';
import type { AcquireOptions } from './interprocess-lock.js';

/** Checks an options argument is an object. */
export function checkOptionsObject(options: unknown): void {
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('options must be an object');
  }
}

/** Checks `acquire(timeoutMs, options)` (a negative or non-finite timeout is refused); returns the signal. */
export function checkAcquireArguments(
  timeoutMs: unknown,
  options: unknown,
): AbortSignal | undefined {
  if (timeoutMs !== undefined) validateTimeoutMs('timeoutMs', timeoutMs);
  checkOptionsObject(options);
  const { signal } = options as AcquireOptions;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new InvalidArgumentError('signal must be an AbortSignal');
  }
  return signal;
}

/** Checks optional node data given to a constructor, so a mistake fails there and not at acquire. */
export function checkNodeData(name: string, data: unknown): Uint8Array | undefined {
  if (data === undefined) return undefined;
  if (!(data instanceof Uint8Array)) {
    throw new InvalidArgumentError(`${name} must be a Buffer or Uint8Array`);
  }
  // Over ZooKeeper's node limit it could never be written: refused here, not at acquire().
  validateData(data);
  return data;
}

/** Checks an optional boolean option. */
export function checkFlag(name: string, value: unknown): boolean | undefined {
  if (value !== undefined && typeof value !== 'boolean') {
    throw new InvalidArgumentError(`${name} must be a boolean`);
  }
  return value;
}
