// Kept over addEventListener/addAbortListener: docs/benchmarks.md "Own helpers kept, and why".
// Many waits share one signal: every request in flight listens to the client's close. Node's
// EventTarget walks its whole listener list on each add and remove, so n waits on one signal
// cost O(n²): 16,000 concurrent reads spent two thirds of their CPU in addEventListener. Here a
// signal gets one real listener, and the waits on it sit in a Set (O(1) to add and remove).

const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `listener` once when `signal` aborts (not at all if it already has: check `aborted`
 * first). Returns the function that stops listening. Listeners run in the order they were added.
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  let listeners = waiting.get(signal);
  if (listeners === undefined) {
    const created = new Set<() => void>();
    listeners = created;
    waiting.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        waiting.delete(signal);
        for (const each of created) {
          try {
            each();
          } catch (error) {
            // As EventTarget does: one listener's failure neither stops the others nor is lost.
            queueMicrotask(() => {
              throw error;
            });
          }
        }
      },
      { once: true },
    );
  }
  const set = listeners;
  set.add(listener);
  return () => {
    set.delete(listener);
  };
}

/**
 * Calls `listener` once with the first of `signals` to abort, at once when one already has.
 * Returns the function that stops listening to all of them.
 */
export function onAnyAbort(
  signals: readonly (AbortSignal | undefined)[],
  listener: (signal: AbortSignal) => void,
): () => void {
  const removers: (() => void)[] = [];
  const stop = (): void => {
    for (const remove of removers) remove();
  };
  for (const signal of signals) {
    if (signal === undefined) continue;
    if (signal.aborted) {
      stop();
      listener(signal);
      return () => {};
    }
    removers.push(
      onAbort(signal, () => {
        stop();
        listener(signal);
      }),
    );
  }
  return stop;
}
