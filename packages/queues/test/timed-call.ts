// How long a call takes to settle, for the outage tests: every wait must end inside its limit.
import assert from 'node:assert/strict';

/** How a call settled, and how long it took. */
export interface Timed {
  readonly value?: unknown;
  readonly error?: unknown;
  readonly ms: number;
}

/** Runs `call` and records how it settled and after how many milliseconds. */
export function timed(call: () => Promise<unknown>): Promise<Timed> {
  const started = performance.now();
  return call().then(
    (value) => ({ value, ms: performance.now() - started }),
    (error: unknown) => ({ error, ms: performance.now() - started }),
  );
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
