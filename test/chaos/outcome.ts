// Which errors leave a call's outcome open. Only an answer from the server that the call was
// refused (NO_NODE, BAD_VERSION, ...) or bad input caught before sending says "no effect";
// anything else -- a lost connection, an expired session, a timeout, a closed client, an
// aborted wait, an error we do not know -- may have come after the request took effect.
import { isZooKeeperError } from '@zkrecipes/framework';
import type { Outcome } from './history.js';

const NO_EFFECT = new Set<string>([
  'NO_NODE',
  'NODE_EXISTS',
  'BAD_VERSION',
  'NOT_EMPTY',
  'NO_AUTH',
  'INVALID_ACL',
  'BAD_ARGUMENTS',
  'NO_CHILDREN_FOR_EPHEMERALS',
  'UNIMPLEMENTED',
  'INVALID_ARGUMENT',
  'ILLEGAL_STATE',
]);

/** `fail` when `error` proves the call had no effect, else `unknown`. */
export function errorOutcome(error: unknown): Exclude<Outcome, 'ok'> {
  return isZooKeeperError(error) && NO_EFFECT.has(error.code) ? 'fail' : 'unknown';
}

/** One line for the history: the error's class, code and message. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = isZooKeeperError(error) ? ` ${error.code}` : '';
    return `${error.name}${code}: ${error.message}`.slice(0, 300);
  }
  return String(error).slice(0, 300);
}
