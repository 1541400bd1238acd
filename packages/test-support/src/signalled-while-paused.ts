// The check every recipe's read-only calls get in their outage tests: on a paused server (the
// link still reads as connected), the caller's signal alone ends each call, on time.
import assert from 'node:assert/strict';
import type { FrameworkClient } from '@zkrecipes/framework';
import { timing, type TestingServer } from '@zkrecipes/testing';
import { assertBetween, isTimeoutError, timed } from './timed-call.js';

/** A call given a signal, and its name for the messages. */
export type SignalledCall = readonly [
  what: string,
  call: (signal: AbortSignal) => Promise<unknown>,
];

/** Options of {@link assertSignalsEndCallsWhilePaused}. */
export interface SignalledWhilePausedOptions {
  /** Told each call's time (the test's `t.diagnostic`). */
  readonly diagnostic?: ((message: string) => void) | undefined;
  /** Runs once the calls given an aborted signal have settled, before the others start. */
  readonly afterAborted?: (() => void) | undefined;
}

/**
 * Pauses `server` and asserts that each call given a signal aborted already rejects with its
 * reason in under 50 ms, and given `AbortSignal.timeout(1000)` rejects with its TimeoutError in
 * 1 to 1.5 s while `client` still reads as connected. The server is resumed before it returns.
 */
export async function assertSignalsEndCallsWhilePaused(
  server: TestingServer,
  client: FrameworkClient,
  calls: readonly SignalledCall[],
  options: SignalledWhilePausedOptions = {},
): Promise<void> {
  const cause = AbortSignal.abort(new Error('given up'));
  await server.pause();
  try {
    const early = await Promise.all(calls.map(([, call]) => timed(() => call(cause))));
    options.afterAborted?.();
    const outcomes = await Promise.all(
      calls.map(([, call]) => timed(() => call(AbortSignal.timeout(1000)))),
    );
    assert.equal(client.isConnected, true, 'still reads as connected');
    for (const [index, [what]] of calls.entries()) {
      const aborted = early[index]!;
      assert.equal(aborted.error, cause.reason, `${what} given an aborted signal`);
      assert.ok(aborted.ms < 50, `${what} given an aborted signal took ${aborted.ms} ms`);
      const outcome = outcomes[index]!;
      options.diagnostic?.(`${what} with the server paused: ${Math.round(outcome.ms)} ms`);
      assert.ok(isTimeoutError(outcome.error), `${what}: ${String(outcome.error)}`);
      assertBetween(what, outcome, 1000, timing.ms(1500));
    }
  } finally {
    if (server.paused) server.resume();
  }
}
