// Argument checks shared by both queues, in the framework's message shape
// (`<name> must be <rule>; got <value>`), so bad input fails before anything is sent.
import { describeValue } from '@zkrecipes/framework/recipe-support';
import { InvalidArgumentError, MAX_NODE_DATA_BYTES } from '@zkrecipes/framework';

/** Options of the calls that may wait (take, poll, put on a bounded queue). */
export interface WaitOptions {
  /** Give up after this many milliseconds. Default: wait as long as it takes. */
  readonly timeoutMs?: number | undefined;
  /** Aborting rejects the call with the signal's reason. Default: none. */
  readonly signal?: AbortSignal | undefined;
}

/** Asserts a whole number in [min, max]. */
export function checkWholeNumber(name: string, value: unknown, min: number, max: number): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new InvalidArgumentError(
      `${name} must be a whole number from ${min} to ${max}; got ${describeValue(value)}`,
    );
  }
}

/**
 * Asserts a queue node's data fits in one znode, naming both sizes and the limit.
 * `what` starts the message: "queue item", "putMulti envelope of 3 items", ...
 */
export function checkNodeSize(what: string, bytes: number, detail: string, path: string): void {
  if (bytes <= MAX_NODE_DATA_BYTES) return;
  throw new InvalidArgumentError(
    `${what} is ${bytes} bytes${detail}; the limit is ${MAX_NODE_DATA_BYTES} bytes per node ` +
      `(ZooKeeper's jute.maxbuffer, 1048575 bytes, covers the whole request). ZooKeeper is no ` +
      `place for large payloads: store them elsewhere and queue a reference`,
    { path },
  );
}
