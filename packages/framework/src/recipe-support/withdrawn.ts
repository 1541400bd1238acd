// Kept over abort() without a reason: docs/benchmarks.md "Own helpers kept, and why".
// The reason a recipe gives when it silences its own watch or wait. `abort()` without a reason
// makes a new DOMException, stack and all, each time: about 8 µs more per abort in a
// micro-benchmark, on paths that abort once per look (a barrier member silences a watch at
// each step). One reason, made once, serves them all; nothing reads its stack.

/** The reason of a signal a recipe aborts because nothing waits for its outcome any more. */
export const WITHDRAWN: DOMException = new DOMException(
  'withdrawn: nothing waits for this any more',
  'AbortError',
);
