// Slow machines (CI under load, valgrind-style runs) need longer deadlines, not different
// tests. Every deadline the harness waits on goes through `timing.ms`, so one environment
// variable stretches them all. Values that configure ZooKeeper itself (tickTime, session
// timeouts) or a fault (FaultProxy delay) are never scaled: they are what is being tested.

/** The environment variable holding the timing scale, e.g. `ZK_TEST_TIMING_SCALE=3`. */
export const TIMING_SCALE_ENV = 'ZK_TEST_TIMING_SCALE';

/**
 * Parses a timing scale. `undefined` or an empty string means 1; anything else must be a
 * finite positive number, otherwise the error names the variable so a typo is obvious.
 */
export function parseTimingScale(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 1;
  const scale = Number(value);
  if (!Number.isFinite(scale) || scale <= 0) {
    throw new Error(
      `${TIMING_SCALE_ENV} must be a positive number (e.g. 2 for twice the deadlines), got ${JSON.stringify(value)}`,
    );
  }
  return scale;
}

/** Deadline scaling for tests; read from the environment at each use so tests can change it. */
export const timing = {
  /** The current scale from `ZK_TEST_TIMING_SCALE` (default 1). Throws on a bad value. */
  get scale(): number {
    return parseTimingScale(process.env[TIMING_SCALE_ENV]);
  },
  /** `ms` multiplied by the scale, rounded up to a whole millisecond. */
  ms(ms: number): number {
    return Math.ceil(ms * timing.scale);
  },
};
