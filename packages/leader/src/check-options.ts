// Argument checks shared by both recipes: bad input fails at once with an InvalidArgumentError
// that says what was wrong, before anything is sent.
import { InvalidArgumentError } from '@zkrecipes/framework';
import type { LeaderSelectorListener, TakeLeadership } from './leader-selector-options.js';

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}

export function checkOptionsObject(options: unknown, name = 'options'): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidArgumentError(`${name} must be an object; got ${describe(options)}`);
  }
}

/** A participant id: any string (Curator's ids may be empty). */
export function checkId(id: unknown): string {
  if (id === undefined) return '';
  if (typeof id !== 'string') {
    throw new InvalidArgumentError(`id must be a string; got ${describe(id)}`);
  }
  return id;
}

export function checkFlag(name: string, value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') {
    throw new InvalidArgumentError(`${name} must be a boolean; got ${describe(value)}`);
  }
  return value;
}

export function checkConcurrency(value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 1000) {
    throw new InvalidArgumentError(
      `concurrency must be a whole number from 1 to 1000; got ${describe(value)}`,
    );
  }
  return value;
}

export function checkSignal(signal: unknown): AbortSignal | undefined {
  if (signal === undefined || signal instanceof AbortSignal) return signal;
  throw new InvalidArgumentError(`signal must be an AbortSignal; got ${describe(signal)}`);
}

/** A LeaderSelector's listener, as the function form. */
export function checkSelectorListener(
  listener: LeaderSelectorListener | TakeLeadership,
): TakeLeadership {
  if (typeof listener === 'function') return listener;
  if (
    typeof listener === 'object' &&
    listener !== null &&
    typeof (listener as Partial<LeaderSelectorListener>).takeLeadership === 'function'
  ) {
    return (signal, leadership) => listener.takeLeadership(signal, leadership);
  }
  throw new InvalidArgumentError(
    'listener must be a function (signal, leadership) => ... or an object with takeLeadership(signal, leadership)',
  );
}
