// How long a call takes to settle, for the outage tests: every wait must end inside its limit.
import assert from 'node:assert/strict';

/**
 * How a call settled, and how long it took. Exactly one of `value` (resolved) and `error`
 * (rejected) is an own property, so `'value' in result` tells the two apart.
 */
export interface Timed<T = unknown> {
  readonly value?: T;
  readonly error?: unknown;
  readonly ms: number;
}

/**
 * Runs `call` and records how it settled and after how many milliseconds. A call that throws
 * before returning its promise counts as rejected. Generic over the call, not its value, so that
 * a list of calls with different results can be timed one by one.
 */
export async function timed<Call extends () => Promise<unknown>>(
  call: Call,
): Promise<Timed<Awaited<ReturnType<Call>>>> {
  const started = performance.now();
  try {
    const value = (await call()) as Awaited<ReturnType<Call>>;
    return { value, ms: performance.now() - started };
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
}

/** How long `call` took to settle, in ms; a rejection is passed on (see {@link timed}). */
export async function elapsedMs(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

/** Fails unless the call settled within [minMs, maxMs). */
export function assertBetween(label: string, result: Timed, minMs: number, maxMs: number): void {
  // Timers fire on whole milliseconds: one may come a hair before the `performance.now()` mark.
  assert.ok(
    result.ms >= minMs - 2 && result.ms < maxMs,
    `${label} settled after ${result.ms.toFixed(0)} ms, not in [${minMs}, ${maxMs})`,
  );
}

/** The error `AbortSignal.timeout` aborts with. */
export function isTimeoutError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'TimeoutError';
}
