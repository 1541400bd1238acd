// Per-child reads are a fan-out: the design caps every fan-out (no unbounded Promise.all), so a
// queue with 100 000 items does not put 100 000 requests on the wire at once. A tiny worker
// pool instead of a p-limit dependency: the CLI adds no dependencies of its own.

/**
 * Maps `items` through `fn` with at most `concurrency` calls in flight; the results keep the
 * order of `items`. The first rejection rejects the whole map (workers stop taking new items).
 */
export async function boundedMap<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, () => worker());
  await Promise.all(workers);
  return results;
}
