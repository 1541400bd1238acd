// A linearizability search (Wing & Gong, with Lowe's memoization, as in Porcupine and Knossos)
// over a single-object model.
//
// Each op has an invoke and a completion time. An op with a known outcome must take effect at
// one instant between the two, consistently with the model. An op with an unknown outcome (an
// error that leaves it open, a process that died mid-call) completes at Infinity: it may take
// effect at any instant after its invoke, or never. The search walks the history in time
// order, linearizing one op at a time and backtracking; it remembers every (set of linearized
// ops, model state) it has been in, so no configuration is explored twice.
//
// Two reductions keep it fast on thousands of ops: unknown ops never have to be linearized
// (leaving one out is "it never took effect"), and unknown ops with the same signature (the
// same increment, the same compare-and-set) are interchangeable, so they are linearized in
// invoke order only.

/** The object being checked. `S` must be a value with a stable string form. */
export interface Model<S, I> {
  readonly init: S;
  /** The state after `input` from `state`, or undefined when it cannot happen there. */
  step(state: S, input: I): S | undefined;
  /** Key of a state for the memo. */
  key(state: S): string;
  /** Unknown ops with equal signatures are interchangeable. */
  signature(input: I): string;
}

export interface LinOp<I> {
  readonly invoke: number;
  /** Infinity for an unknown outcome. */
  readonly complete: number;
  /** What the model checks: the call and (for a known outcome) what it returned. */
  readonly input: I;
  /** True when the outcome is unknown: it may have taken effect, or not. */
  readonly unknown: boolean;
  /** For the report. */
  readonly label: string;
}

export type LinResult<S> =
  | { readonly linearizable: true; readonly steps: number }
  | {
      readonly linearizable: false;
      readonly steps: number;
      /** True when the step budget ran out before an answer. */
      readonly exhausted: boolean;
      /** The most known ops ever linearized at once, and the state they left. */
      readonly deepest: number;
      readonly deepestState: S;
      /** Labels of the last ops of that deepest linearization, in order. */
      readonly linearizedTail: readonly string[];
      /** The known ops that could not be placed there: the earliest-completing first. */
      readonly stuck: readonly string[];
    };

interface Entry {
  readonly call: boolean;
  readonly op: number;
  readonly time: number;
  prev: Entry | undefined;
  next: Entry | undefined;
  /** A call's return entry. */
  match: Entry | undefined;
}

interface Frame<S> {
  readonly entry: Entry;
  readonly state: S;
}

/** Two 32-bit random words per op: the memo hashes a set of ops by XOR (Zobrist). */
function zobrist(count: number): Uint32Array {
  const words = new Uint32Array(count * 2);
  let x = 0x9e3779b9;
  for (let i = 0; i < words.length; i++) {
    // xorshift32, fixed seed: the same hashes every run.
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    words[i] = x;
  }
  return words;
}

/** Whether `ops` can be linearized in `model`; gives up after `maxSteps` search steps. */
export function checkLinearizable<S, I>(
  model: Model<S, I>,
  ops: readonly LinOp<I>[],
  maxSteps = 5_000_000,
): LinResult<S> {
  // The entry list: calls and returns in time order, a call before a return at the same time.
  const head: Entry = {
    call: true,
    op: -1,
    time: -Infinity,
    prev: undefined,
    next: undefined,
    match: undefined,
  };
  const entries: Entry[] = [];
  ops.forEach((op, index) => {
    const call: Entry = {
      call: true,
      op: index,
      time: op.invoke,
      prev: undefined,
      next: undefined,
      match: undefined,
    };
    const ret: Entry = {
      call: false,
      op: index,
      time: op.unknown ? Infinity : op.complete,
      prev: undefined,
      next: undefined,
      match: undefined,
    };
    call.match = ret;
    entries.push(call, ret);
  });
  entries.sort((a, b) => a.time - b.time || (a.call === b.call ? a.op - b.op : a.call ? -1 : 1));
  let tail = head;
  for (const entry of entries) {
    tail.next = entry;
    entry.prev = tail;
    tail = entry;
  }

  // Same-signature unknown ops go in invoke order: each waits for the one before it.
  const waitsFor = new Int32Array(ops.length).fill(-1);
  const lastOf = new Map<string, number>();
  for (const entry of entries) {
    const op = ops[entry.op];
    if (!entry.call || op === undefined || !op.unknown) continue;
    const signature = model.signature(op.input);
    const before = lastOf.get(signature);
    if (before !== undefined) waitsFor[entry.op] = before;
    lastOf.set(signature, entry.op);
  }

  const hashes = zobrist(ops.length);
  const linearized = new Uint8Array(ops.length);
  let h1 = 0;
  let h2 = 0;
  const seen = new Set<string>();
  const stack: Frame<S>[] = [];
  let state = model.init;
  let knownLeft = ops.filter((op) => !op.unknown).length;
  const knownTotal = knownLeft;
  let steps = 0;
  let deepest = -1;
  let deepestState = state;
  let deepestTail: string[] = [];
  let deepestStuck: string[] = [];

  const lift = (entry: Entry): void => {
    const ret = entry.match as Entry;
    (entry.prev as Entry).next = entry.next;
    if (entry.next !== undefined) entry.next.prev = entry.prev;
    (ret.prev as Entry).next = ret.next;
    if (ret.next !== undefined) ret.next.prev = ret.prev;
  };
  const unlift = (entry: Entry): void => {
    const ret = entry.match as Entry;
    (ret.prev as Entry).next = ret;
    if (ret.next !== undefined) ret.next.prev = ret;
    (entry.prev as Entry).next = entry;
    if (entry.next !== undefined) entry.next.prev = entry;
  };
  const toggle = (index: number): void => {
    linearized[index] = linearized[index] === 1 ? 0 : 1;
    h1 ^= hashes[index * 2] as number;
    h2 ^= hashes[index * 2 + 1] as number;
  };
  const noteDepth = (): void => {
    const depth = knownTotal - knownLeft;
    if (depth <= deepest) return;
    deepest = depth;
    deepestState = state;
    deepestTail = stack.slice(-8).map((frame) => (ops[frame.entry.op] as LinOp<I>).label);
    deepestStuck = [];
    for (let e = head.next; e !== undefined && deepestStuck.length < 6; e = e.next) {
      const op = ops[e.op] as LinOp<I>;
      if (!e.call && !op.unknown) deepestStuck.push(op.label);
    }
  };

  noteDepth();
  let entry = head.next;
  for (;;) {
    if (knownLeft === 0) return { linearizable: true, steps };
    if (++steps > maxSteps) break;
    if (entry === undefined) break; // only unknown ops left unplaced: cannot happen with knownLeft > 0
    if (entry.call) {
      const op = ops[entry.op] as LinOp<I>;
      const before = waitsFor[entry.op] as number;
      const next =
        before >= 0 && linearized[before] === 0 ? undefined : model.step(state, op.input);
      if (next !== undefined) {
        toggle(entry.op);
        const key = `${h1}:${h2}:${model.key(next)}`;
        if (!seen.has(key)) {
          seen.add(key);
          stack.push({ entry, state });
          state = next;
          if (!op.unknown) knownLeft -= 1;
          lift(entry);
          noteDepth();
          entry = head.next;
          continue;
        }
        toggle(entry.op);
      }
      entry = entry.next;
    } else {
      // A return reached before its call was linearized: undo the last choice.
      const frame = stack.pop();
      if (frame === undefined) {
        return fail(false);
      }
      const op = ops[frame.entry.op] as LinOp<I>;
      state = frame.state;
      toggle(frame.entry.op);
      if (!op.unknown) knownLeft += 1;
      unlift(frame.entry);
      entry = frame.entry.next;
    }
  }
  return fail(true);

  function fail(exhausted: boolean): LinResult<S> {
    return {
      linearizable: false,
      steps,
      exhausted,
      deepest: Math.max(deepest, 0),
      deepestState,
      linearizedTail: deepestTail,
      stuck: deepestStuck,
    };
  }
}
