/**
 * `node bench/dist/src/chart.js /tmp/compare.jsonl > docs/benchmarks.svg`: an SVG bar chart of
 * the ratios compare.sh prints (medians over rounds): throughput ours/Curator and latency
 * Curator/ours p50, one row per scenario; > 1 means zkrecipes is faster.
 */
import { readFileSync } from 'node:fs';

interface Row {
  readonly impl: string;
  readonly scenario: string;
  readonly ops_per_s: number | null;
  readonly p50_ms: number | null;
}

export interface Ratio {
  readonly scenario: string;
  readonly kind: 'throughput' | 'p50 latency';
  readonly value: number;
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The ratios of compare.sh, from its raw JSON lines (peer: curator-java). */
export function ratios(lines: readonly string[]): Ratio[] {
  const rows = lines.filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Row);
  const scenarios = [...new Set(rows.map((r) => r.scenario))];
  const out: Ratio[] = [];
  for (const scenario of scenarios) {
    const pick = (peer: boolean, field: 'ops_per_s' | 'p50_ms'): number | undefined =>
      median(
        rows
          .filter((r) => r.scenario === scenario && (r.impl === 'curator-java') === peer)
          .map((r) => r[field])
          .filter((v): v is number => typeof v === 'number' && v > 0),
      );
    const [co, oo, cp, op] = [
      pick(true, 'ops_per_s'),
      pick(false, 'ops_per_s'),
      pick(true, 'p50_ms'),
      pick(false, 'p50_ms'),
    ];
    if (co !== undefined && oo !== undefined)
      out.push({ scenario, kind: 'throughput', value: oo / co });
    if (cp !== undefined && op !== undefined)
      out.push({ scenario, kind: 'p50 latency', value: cp / op });
  }
  return out;
}

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** A horizontal bar chart on a log2 axis from 1/4 to 64, with the 1.0 line marked. */
export function renderSvg(data: readonly Ratio[], title: string): string {
  const rowHeight = 22;
  const left = 300;
  const width = 520;
  const top = 50;
  const height = top + data.length * rowHeight + 40;
  const [lo, hi] = [-2, 6];
  const x = (v: number): number =>
    Math.round(
      10 * (left + ((Math.min(Math.max(Math.log2(v), lo), hi) - lo) / (hi - lo)) * width),
    ) / 10;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${left + width + 90}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="10" y="20" font-size="14" font-weight="bold">${escape(title)}</text>`,
    `<text x="10" y="38" fill="#555">ratio &gt; 1: zkrecipes faster (throughput ours/Curator, latency Curator/ours p50); log scale</text>`,
  ];
  for (let e = lo; e <= hi; e += 1) {
    const v = 2 ** e;
    parts.push(
      `<line x1="${x(v)}" y1="${top - 4}" x2="${x(v)}" y2="${height - 30}" stroke="${e === 0 ? '#000' : '#ddd'}"/>`,
      `<text x="${x(v)}" y="${height - 14}" text-anchor="middle" fill="#555">${v < 1 ? `1/${1 / v}` : v}</text>`,
    );
  }
  data.forEach((r, i) => {
    const y = top + i * rowHeight;
    const [x0, x1] = [x(1), x(r.value)];
    const color = r.value >= 1 ? (r.kind === 'throughput' ? '#2b7bb9' : '#3a9d5d') : '#d0543c';
    parts.push(
      `<text x="${left - 8}" y="${y + 14}" text-anchor="end">${escape(`${r.scenario} (${r.kind})`)}</text>`,
      `<rect x="${Math.min(x0, x1)}" y="${y + 3}" width="${Math.max(Math.round(10 * Math.abs(x1 - x0)) / 10, 1)}" height="${rowHeight - 7}" fill="${color}"/>`,
      `<text x="${Math.max(x0, x1) + 4}" y="${y + 14}">${r.value.toFixed(2)}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function main(): void {
  const file = process.argv[2];
  if (file === undefined) {
    process.stderr.write('usage: node bench/dist/src/chart.js COMPARE.jsonl [TITLE] > chart.svg\n');
    process.exitCode = 2;
    return;
  }
  const title = process.argv[3] ?? 'zkrecipes vs Apache Curator 5.4: median of compare.sh rounds';
  process.stdout.write(renderSvg(ratios(readFileSync(file, 'utf8').split('\n')), title));
}

if (import.meta.url === `file://${process.argv[1]}`) main();
