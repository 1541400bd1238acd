import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { describeValue } from '../errors/describe-value.js';
import { validateTimeoutMs } from './validate-number.js';
import { closestName } from './closest-name.js';

/** The keys of a call's `{ signal }` options and of a waiting call's `{ timeoutMs, signal }`. */
const SIGNAL_OPTIONS = ['signal'];
const WAIT_OPTIONS = ['timeoutMs', 'signal'];

/**
 * Throws unless `options` is undefined or a plain object (not null, not an array, not a
 * primitive). `name` is what the message calls it: `options` unless the object is one option
 * of another (`promotedToLock`). Undefined passes because every options argument is optional;
 * a call site that needs an object gives its parameter a `= {}` default.
 */
export function checkOptionsObject(options: unknown, name = 'options'): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidArgumentError(`${name} must be an object; got ${describeValue(options)}`);
  }
}

/** `value` when it is a boolean, `fallback` when undefined; anything else throws. */
export function booleanOption(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') {
    throw new InvalidArgumentError(`${name} must be a boolean; got ${describeValue(value)}`);
  }
  return value;
}

/** `value` when it is a whole number >= 1, `fallback` when undefined; anything else throws. */
export function positiveIntegerOption(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new InvalidArgumentError(
      `${name} must be a whole number >= 1; got ${describeValue(value)}`,
    );
  }
  return value;
}

/** `value` when it is an AbortSignal, undefined when undefined; anything else throws. */
export function signalOption(value: unknown): AbortSignal | undefined {
  if (value === undefined || value instanceof AbortSignal) return value;
  throw new InvalidArgumentError(`signal must be an AbortSignal; got ${describeValue(value)}`);
}

/**
 * The signal of a call's `{ signal }` options: options that are not an object, another key (a
 * typo would go unnoticed), or a signal that is not an AbortSignal, fail with
 * InvalidArgumentError; a signal that has aborted already throws its reason. Either way before
 * anything is sent.
 */
export function checkSignalOptions(options: unknown): AbortSignal | undefined {
  checkRecipeOptions('options', options, SIGNAL_OPTIONS);
  const signal = signalOption((options as { signal?: unknown } | undefined)?.signal);
  signal?.throwIfAborted();
  return signal;
}

/** The options of a call that may wait: a timeout and a signal. */
export interface WaitLimitOptions {
  /** Give up after this many milliseconds (0: look once, never wait). */
  readonly timeoutMs?: number | undefined;
  /** Aborting rejects the call with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Asserts a waiting call's `{ timeoutMs, signal }` (or undefined): an object with no other key
 * (`{ timeout: 5 }` would otherwise wait with no limit at all), a timeout from 0 to 2147483647
 * ms, an AbortSignal. InvalidArgumentError otherwise, before anything is sent.
 */
export function checkWaitOptions(
  options: unknown,
): asserts options is WaitLimitOptions | undefined {
  checkRecipeOptions('options', options, WAIT_OPTIONS);
  if (options === undefined) return;
  const { timeoutMs, signal } = options as { timeoutMs?: unknown; signal?: unknown };
  if (timeoutMs !== undefined) validateTimeoutMs('timeoutMs', timeoutMs);
  signalOption(signal);
}

/**
 * Throws unless `value` is a function; `name` is what the message calls it (`listener`,
 * `runInFlow's fn`, `listener.stateChanged`). For an optional one, call it when not undefined.
 */
export function checkFunction(name: string, value: unknown): void {
  if (typeof value !== 'function') {
    throw new InvalidArgumentError(`${name} must be a function; got ${describeValue(value)}`);
  }
}

/** Throws unless `listener` is a function. */
export function checkListener(listener: unknown): void {
  checkFunction('listener', listener);
}

/**
 * The check of every `on(event, listener)`: the one event name the object has, and a function.
 * Both before anything is registered.
 */
export function checkEventListener(expected: string, event: unknown, listener: unknown): void {
  if (event !== expected) {
    throw new InvalidArgumentError(`unknown event ${describeValue(event)}; only '${expected}'`);
  }
  checkListener(listener);
}

/**
 * The first check of every recipe constructor: `client` is a client from `createFramework` (or
 * a namespace view), so a caller who passed something else learns it from an
 * InvalidArgumentError naming the recipe, not from a TypeError deep inside it.
 */
export function checkClient(recipe: string, client: unknown): void {
  const candidate = client as { getChildren?: unknown; usingNamespace?: unknown } | null;
  if (
    typeof candidate?.getChildren !== 'function' ||
    typeof candidate.usingNamespace !== 'function'
  ) {
    throw new InvalidArgumentError(
      `${recipe} needs a client from createFramework(); got ${describeValue(client)}`,
    );
  }
}

/**
 * The options check of a recipe constructor: `options` is undefined or a plain object, and
 * every key in it is one of `known`. A misspelt option (`lockdata`, `sessionTimeout`) would
 * otherwise be ignored silently from JavaScript; the error names the recipe and the closest
 * known option. A key whose value is undefined counts as absent.
 */
export function checkRecipeOptions(
  recipe: string,
  options: unknown,
  known: readonly string[],
): void {
  checkOptionsObject(options);
  if (options === undefined) return;
  for (const [name, value] of Object.entries(options as Record<string, unknown>)) {
    if (value === undefined || known.includes(name)) continue;
    const near = closestName(name, known);
    throw new InvalidArgumentError(
      `${recipe}: unknown option '${name}'` +
        (near === undefined ? `; known: ${known.join(', ')}` : ` (did you mean '${near}'?)`),
    );
  }
}
