// Latency summaries in tests use the rule of the peer benchmark, so numbers compare with it.

/** Nearest-rank percentile of `samples` (NaN when there are none). */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
