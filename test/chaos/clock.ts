// The clock every history timestamp is on: CLOCK_MONOTONIC in milliseconds, read through
// process.hrtime. It is one clock for the whole machine, so the runner's and every worker's
// timestamps compare directly, and no wall-clock step or slew can reorder them.
//
// A hold's validity (`hold.validUntil`, `latch.validUntil`) is a performance.now() instant.
// Node's performance.now() is the same hrtime minus the process's start, so one constant per
// process converts it to this clock.

/** Now, in milliseconds of CLOCK_MONOTONIC. */
export function monoNow(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

const performanceOffset = monoNow() - performance.now();

/** A performance.now() instant of this process on the shared clock; null for +-Infinity. */
export function monoFromPerformance(instant: number): number | null {
  return Number.isFinite(instant) ? instant + performanceOffset : null;
}
