// Tests synchronise on conditions, never on sleeps: poll until the predicate returns
// something truthy. The last value or error is kept so a timeout says *why* it never held.
import { setTimeout as delay } from 'node:timers/promises';
import { inspect } from 'node:util';
import { timing } from './timing.js';

/** Options of {@link waitFor}. */
export interface WaitForOptions {
  /** Deadline before scaling by `timing.scale`. Default 10000. */
  timeoutMs?: number;
  /** Pause between polls (not scaled). Default 20. */
  intervalMs?: number;
  /** What is being waited for; it starts the timeout error's message. Default 'condition'. */
  message?: string;
}

/** The falsy values `waitFor` keeps polling through. */
export type Falsy = false | 0 | 0n | '' | null | undefined;

/**
 * Polls `predicate` until it returns (or resolves to) a truthy value and resolves with that
 * value. A thrown error counts as "not yet". When the scaled timeout passes, rejects with an
 * Error naming `message` and the last value or error seen. The error's `cause` is that last
 * error, if there was one.
 *
 * Watch out for falsy results that mean success, such as index 0: return `{ index }` instead.
 */
export async function waitFor<T>(
  predicate: () => T | Promise<T>,
  options: WaitForOptions = {},
): Promise<Exclude<T, Falsy>> {
  const { timeoutMs = 10_000, intervalMs = 20, message = 'condition' } = options;
  const scaledMs = timing.ms(timeoutMs);
  const deadline = Date.now() + scaledMs;
  let last: { value: unknown } | { error: unknown } | undefined;
  for (;;) {
    try {
      const value = await predicate();
      if (value) return value as Exclude<T, Falsy>;
      last = { value };
    } catch (error) {
      last = { error };
    }
    if (Date.now() >= deadline) break;
    await delay(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
  }
  const lastText =
    last === undefined
      ? 'no attempt finished'
      : 'error' in last
        ? `last error: ${last.error instanceof Error ? last.error.message : inspect(last.error)}`
        : `last value: ${inspect(last.value, { depth: 3, breakLength: Infinity })}`;
  throw new Error(`Timed out after ${scaledMs} ms waiting for ${message} (${lastText})`, {
    cause: last !== undefined && 'error' in last ? last.error : undefined,
  });
}
