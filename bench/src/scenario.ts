import type { BenchContext } from './bench-context.js';
import { UsageError } from './cli-args.js';
import type { ResultLine } from './result-line.js';

/** A scenario runs under `path` and returns one line per name in `emits`. */
export interface Scenario {
  readonly name: string;
  /** The JSON lines it produces (group.membership produces two). Default: its name. */
  readonly emits?: readonly string[];
  run(context: BenchContext, path: string): Promise<ResultLine[]>;
}

export function emitsOf(scenario: Scenario): readonly string[] {
  return scenario.emits ?? [scenario.name];
}

/** A filter matches a scenario's name exactly or as a dotted prefix ("mutex" -> mutex.*). */
export function matchesFilter(scenario: Scenario, filter: string): boolean {
  return emitsOf(scenario).some((name) => name === filter || name.startsWith(`${filter}.`));
}

/**
 * The scenarios `filters` select, in run order. No filter (or `all`) selects `defaults` (the
 * peer's); an unknown filter is a usage error.
 */
export function selectScenarios(
  all: readonly Scenario[],
  defaults: readonly Scenario[],
  filters: readonly string[],
): Scenario[] {
  if (filters.length === 0 || filters.includes('all')) return [...defaults];
  for (const filter of filters) {
    if (!all.some((s) => matchesFilter(s, filter))) {
      throw new UsageError(`unknown scenario: ${filter}`);
    }
  }
  return all.filter((s) => filters.some((f) => matchesFilter(s, f)));
}
