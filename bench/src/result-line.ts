import { formatMs, type Samples } from './samples.js';

export const IMPL = 'zkrecipes';

/** One peer-bench JSON line, fields in the contract's order. */
export interface ResultLine {
  readonly scenario: string;
  readonly n: number;
  readonly opsPerSecond: number | undefined;
  readonly p50Ms: number | undefined;
  readonly p99Ms: number | undefined;
  readonly notes: string;
}

export function resultFromSamples(
  scenario: string,
  samples: Samples,
  opsPerSecond: number | undefined,
  notes: string,
): ResultLine {
  return {
    scenario,
    n: samples.count,
    opsPerSecond,
    p50Ms: samples.percentile(50),
    p99Ms: samples.percentile(99),
    notes: `${notes}; ${samples.tail()}`,
  };
}

export function errorLine(scenario: string, error: unknown): ResultLine {
  const message = error instanceof Error ? error.message : String(error);
  return {
    scenario,
    n: 0,
    opsPerSecond: undefined,
    p50Ms: undefined,
    p99Ms: undefined,
    notes: `ERROR: ${message.replace(/\s+/g, ' ')}`,
  };
}

/** Serialises with numbers rounded as the contract says (ops 1 decimal, ms 3 decimals). */
export function formatResultLine(line: ResultLine): string {
  const number = (value: number | undefined, digits: number): string =>
    value === undefined || !Number.isFinite(value) ? 'null' : value.toFixed(digits);
  return (
    `{"impl":${JSON.stringify(IMPL)},"scenario":${JSON.stringify(line.scenario)},` +
    `"n":${line.n},"ops_per_s":${number(line.opsPerSecond, 1)},` +
    `"p50_ms":${formatMs(line.p50Ms)},"p99_ms":${formatMs(line.p99Ms)},` +
    `"notes":${JSON.stringify(line.notes)}}`
  );
}
