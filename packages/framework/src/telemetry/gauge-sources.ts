import type { Attributes, ObservableResultLike } from './otel-types.js';

interface Source {
  readonly key: string;
  readonly attributes: Attributes;
  readonly read: () => number | undefined;
}

/**
 * The sources behind one observable gauge (a cache's entry count, a queue's backlog): each
 * collection reads them all, sums those with equal attributes, and reports one value per
 * attribute set. A source that throws or answers undefined is left out of that collection.
 */
export class GaugeSources {
  readonly #sources = new Set<Source>();
  /** Called when the last source is removed. */
  onEmpty: (() => void) | undefined;

  add(attributes: Attributes, read: () => number | undefined): () => void {
    const source: Source = { key: keyOf(attributes), attributes, read };
    this.#sources.add(source);
    return () => {
      if (this.#sources.delete(source) && this.#sources.size === 0) this.onEmpty?.();
    };
  }

  report(result: ObservableResultLike): void {
    const totals = new Map<string, { attributes: Attributes; value: number }>();
    for (const source of this.#sources) {
      let value: number | undefined;
      try {
        value = source.read();
      } catch {
        value = undefined;
      }
      if (value === undefined) continue;
      const total = totals.get(source.key);
      if (total === undefined) totals.set(source.key, { attributes: source.attributes, value });
      else total.value += value;
    }
    for (const { attributes, value } of totals.values()) result.observe(value, attributes);
  }
}

function keyOf(attributes: Attributes): string {
  return JSON.stringify(Object.entries(attributes).sort(([a], [b]) => (a < b ? -1 : 1)));
}
