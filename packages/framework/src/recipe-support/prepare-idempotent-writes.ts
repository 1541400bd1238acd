import { WRITE_WITNESSES, type FrameworkClient } from '../client/framework-client.js';

/**
 * Makes the witness an `idempotent: true` write needs ahead of time, in the background, so a
 * recipe's first such write (a queue's first claim, a counter's first compare-and-set) takes
 * one round trip, not two. Call it where the recipe starts, once connected; it does nothing
 * when a witness is ready or being made, and failures are left to the write to meet.
 */
export function prepareIdempotentWrites(client: FrameworkClient): void {
  client[WRITE_WITNESSES]().warm();
}
