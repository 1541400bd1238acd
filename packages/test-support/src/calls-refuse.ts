// The misuse tests' loop: every call of a recipe, given every bad value, refuses it.
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@zkrecipes/framework';

/** A call given the value under test, and its name for the messages. */
export type RefusingCall = readonly [what: string, call: (input: never) => Promise<unknown>];

/**
 * Asserts that each call, given each of `inputs`, rejects with an InvalidArgumentError whose
 * message matches `message`.
 */
export async function assertCallsRefuse(
  calls: readonly RefusingCall[],
  inputs: readonly unknown[],
  message: RegExp,
): Promise<void> {
  for (const [what, call] of calls) {
    for (const input of inputs) {
      await assert.rejects(call(input as never), (error) => {
        assert.ok(error instanceof InvalidArgumentError, `${what}: ${String(error)}`);
        assert.match(error.message, message, what);
        return true;
      });
    }
  }
}
