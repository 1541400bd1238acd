// Argument checks shared by the locks. They run before anything is sent and fail with the
// framework's InvalidArgumentError, so callers branch on one error type for bad input.
// The generic checks (options object, signal, flags) are the framework's recipe-support ones.
import { InvalidArgumentError, validateData, validateTimeoutMs } from '@zkrecipes/framework';
import {
  checkRecipeOptions,
  signalOption,
  describeValue,
} from '@zkrecipes/framework/recipe-support';
import type { AcquireOptions } from './interprocess-lock.js';

/** Checks `acquire(timeoutMs, options)` (a negative or non-finite timeout is refused); returns the signal. */
export function checkAcquireArguments(
  timeoutMs: unknown,
  options: unknown,
): AbortSignal | undefined {
  if (timeoutMs !== undefined) validateTimeoutMs('timeoutMs', timeoutMs);
  checkRecipeOptions('options', options, ['signal']);
  return signalOption((options as AcquireOptions | undefined)?.signal);
}

/** Checks optional node data given to a constructor, so a mistake fails there and not at acquire. */
export function checkNodeData(name: string, data: unknown): Uint8Array | undefined {
  if (data === undefined) return undefined;
  if (!(data instanceof Uint8Array)) {
    throw new InvalidArgumentError(
      `${name} must be a Buffer or Uint8Array; got ${describeValue(data)}`,
    );
  }
  // Over ZooKeeper's node limit it could never be written: refused here, not at acquire().
  validateData(data);
  return data;
}
