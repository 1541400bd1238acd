// The child's side of a paused-waiter trial (see paused-waiter-trial.ts), for the script that
// runs in the process the trial stops: it reports its grant, and works when asked so that the
// stop lands in its code.
import { createInterface } from 'node:readline';

/** What the child reports as it is granted (see {@link reportGrant}). */
export interface ChildGrant {
  /** `performance.now() < validUntil` at the grant. */
  readonly valid: boolean;
  /** `validUntil - performance.now()` at the grant: negative when already invalid. */
  readonly validForMs: number;
  /** When, as `performance.timeOrigin + performance.now()`: the clock every process shares. */
  readonly at: number;
}

/**
 * For the child script: prints the grant of `granted` (a hold, a lease, a leadership, a latch)
 * as the one JSON line the trial waits for. Call it on the grant's first line.
 */
export function reportGrant(granted: { readonly validUntil: number }): void {
  const now = performance.now();
  const grant: ChildGrant = {
    valid: now < granted.validUntil,
    validForMs: Math.round(granted.validUntil - now),
    at: performance.timeOrigin + now,
  };
  process.stdout.write(`${JSON.stringify({ type: 'granted', ...grant })}\n`);
}

/** How long the child works when asked, in chunks of BUSY_CHUNK_MS run from timers. */
export const BUSY_FOR_MS = 500;
const BUSY_CHUNK_MS = 20;

/**
 * For the child script, before it takes part: exits when stdin ends (the test went away), and
 * on the line `busy` works for a while (synchronous chunks run from timers), saying `busy`
 * first. The trial stops the child in the middle of that work, as a freeze (SIGSTOP, a VM
 * pause) takes a busy process: in its code, not in the event loop's wait for I/O.
 */
export function serveTrial(): void {
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    if (line !== 'busy') return;
    const until = performance.now() + BUSY_FOR_MS;
    const chunk = (): void => {
      const end = performance.now() + BUSY_CHUNK_MS;
      while (performance.now() < end) {
        // the work
      }
      if (performance.now() < until) setTimeout(chunk, 0);
    };
    process.stdout.write(`${JSON.stringify({ type: 'busy' })}\n`);
    setTimeout(chunk, 0);
  });
  lines.on('close', () => process.exit(0));
}
