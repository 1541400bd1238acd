/** Latency samples in milliseconds with nearest-rank percentiles (the peer-bench rule). */
export class Samples {
  readonly #values: number[] = [];
  #sorted: number[] | undefined;

  add(ms: number): void {
    this.#values.push(ms);
    this.#sorted = undefined;
  }

  get count(): number {
    return this.#values.length;
  }

  /**
   * Nearest-rank: sort, take element ceil(p/100 * n) (1-based); p = 0 gives the minimum.
   * Undefined when there are no samples.
   */
  percentile(p: number): number | undefined {
    if (this.#values.length === 0) return undefined;
    this.#sorted ??= [...this.#values].sort((a, b) => a - b);
    const rank = Math.max(1, Math.ceil((p / 100) * this.#sorted.length));
    return this.#sorted[rank - 1];
  }

  /** `min_ms=… p90_ms=… max_ms=…` for the notes field, as the peer prints them. */
  tail(): string {
    return `min_ms=${formatMs(this.percentile(0))} p90_ms=${formatMs(this.percentile(90))} max_ms=${formatMs(this.percentile(100))}`;
  }
}

/** Milliseconds with 3 decimals, or `null`. */
export function formatMs(ms: number | undefined): string {
  return ms === undefined ? 'null' : ms.toFixed(3);
}
