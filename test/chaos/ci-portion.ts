// The CI portion of the chaos suite, in one place: which seed, how long, and which checkers
// fail `npm test`.
import { CHECKERS, type CheckerName } from './run-chaos.js';

/** Seed 490's 35 s schedule has each kind of fault once (10 faults). */
export const CI_SEED = 490;
export const CI_DURATION_MS = 35_000;
/** Counter ops per worker and counter: one every ~0.6 s. */
export const CI_COUNTER_OPS = 60;

/** The checkers whose violations fail `npm test`: all of them. */
export const CI_ENFORCED: readonly CheckerName[] = CHECKERS;

/** `ZKRECIPES_CHAOS_ENFORCE=all`, or a comma list of checkers, overrides CI_ENFORCED. */
export const CI_ENFORCE_ENV = 'ZKRECIPES_CHAOS_ENFORCE';

export function ciEnforced(env = process.env[CI_ENFORCE_ENV]): readonly CheckerName[] {
  if (env === undefined || env.trim() === '') return CI_ENFORCED;
  if (env.trim() === 'all') return CHECKERS;
  const names = env.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!(CHECKERS as readonly string[]).includes(name)) {
      throw new Error(
        `${CI_ENFORCE_ENV}: unknown checker ${name}; use 'all' or some of ${CHECKERS.join(', ')}`,
      );
    }
  }
  return names as CheckerName[];
}
