// The end of a run on the console: a table (checker, ops, violations), then each violation
// with what it involved, capped so a bad run stays readable (the run directory has it all).
import type { CheckResult } from './checkers/check-result.js';

/** Characters of one violation's details printed; the rest is in violations.json. */
const DETAIL_CHARS = 4000;

export function reportTable(
  results: readonly CheckResult[],
  enforced: ReadonlySet<string>,
): string {
  const rows = results.map((result) => [
    result.checker,
    String(result.ops),
    String(result.violations.length),
    enforced.has(result.checker) ? '' : 'not enforced',
    result.summary ?? '',
  ]);
  const header = ['checker', 'ops', 'violations', '', 'summary'];
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join(
    '\n',
  );
}

export function reportViolations(results: readonly CheckResult[]): string {
  const out: string[] = [];
  for (const result of results) {
    result.violations.forEach((violation, i) => {
      out.push(`[${result.checker}] violation ${i + 1}: ${violation.message}`);
      const details = JSON.stringify(violation.details, null, 2);
      out.push(
        details.length > DETAIL_CHARS
          ? `${details.slice(0, DETAIL_CHARS)}\n... (${details.length} characters: see violations.json)`
          : details,
      );
    });
  }
  return out.join('\n');
}
