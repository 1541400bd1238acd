// The argument checks only the leader recipes have; the generic ones (options object, flags,
// signal) are the framework's recipe-support checks, so every recipe words them alike. Bad
// input fails at once with an InvalidArgumentError that says what was wrong, before anything
// is sent.
import { InvalidArgumentError } from '@zkrecipes/framework';
import { checkFunction, describeValue } from '@zkrecipes/framework/recipe-support';
import type { LeaderSelectorListener, TakeLeadership } from './leader-selector-options.js';

/** A participant id: any string (Curator's ids may be empty). */
export function checkId(id: unknown): string {
  if (id === undefined) return '';
  if (typeof id !== 'string') {
    throw new InvalidArgumentError(`id must be a string; got ${describeValue(id)}`);
  }
  return id;
}

/** The participant-read concurrency: its own range (1 to 1000), so not positiveIntegerOption. */
export function checkConcurrency(value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 1000) {
    throw new InvalidArgumentError(
      `concurrency must be a whole number from 1 to 1000; got ${describeValue(value)}`,
    );
  }
  return value;
}

/**
 * The members a Curator listener object may also have (`ConnectionStateListener`'s). The
 * selector does not call them (connection changes reach `takeLeadership` through its signal),
 * but when given they must be functions, as in Java: anything else is a mistake.
 */
const CURATOR_LISTENER_MEMBERS = ['stateChanged', 'doNotProxy'] as const;

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
    for (const member of CURATOR_LISTENER_MEMBERS) {
      const value = (listener as unknown as Record<string, unknown>)[member];
      if (value !== undefined) checkFunction(`listener.${member}`, value);
    }
    return (signal, leadership) => listener.takeLeadership(signal, leadership);
  }
  throw new InvalidArgumentError(
    'listener must be a function (signal, leadership) => ... or an object with takeLeadership(signal, leadership)',
  );
}
