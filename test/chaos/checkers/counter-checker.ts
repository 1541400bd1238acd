// Counters are linearizable: the SharedCount (trySetCount loops) and the DistributedAtomicLong
// (increment, compareAndSet) histories, each searched against a register model
// (linearizability.ts), ending with the value the runner read once everything settled.
//
// Every write of the workloads adds 1 to what its writer saw, so values only grow and a value
// names a version. What each outcome means in the model:
//  - a write that succeeded (trySetCount true, increment or compareAndSet succeeded): the
//    value went from `from` to `to` at one instant within the call;
//  - trySetCount false: the value was not `expected` at some instant within the call (the
//    server refused the version, or this client's cache had already seen a newer value);
//  - an increment or compareAndSet that did not succeed: no effect, nothing learnt (its read
//    may come from a lagging follower, so it constrains nothing) -- left out of the search;
//  - unknown (an error that leaves it open, or the process died mid-call): the write may have
//    happened at any instant after the invoke, or never.
import { pairOps, type HistoryEvent, type Op } from '../history.js';
import type { CheckResult, Violation } from './check-result.js';
import { checkLinearizable, type LinOp, type Model } from './linearizability.js';

/** What the model applies. */
export type CounterInput =
  | { readonly kind: 'set'; readonly from: number; readonly to: number }
  | { readonly kind: 'notEqual'; readonly value: number }
  | { readonly kind: 'add'; readonly delta: number }
  | { readonly kind: 'cas'; readonly expected: number; readonly next: number }
  | { readonly kind: 'read'; readonly value: number };

export const counterModel: Model<number, CounterInput> = {
  init: 0,
  step(state, input) {
    switch (input.kind) {
      case 'set':
        return state === input.from ? input.to : undefined;
      case 'notEqual':
        return state !== input.value ? state : undefined;
      case 'add':
        return state + input.delta;
      case 'cas':
        return state === input.expected ? input.next : undefined;
      case 'read':
        return state === input.value ? state : undefined;
    }
  },
  key: (state) => String(state),
  signature: (input) => JSON.stringify(input),
};

/** The value the runner read after the run, as a final op. */
export interface FinalRead {
  readonly value: number;
  readonly invoke: number;
  readonly complete: number;
}

interface CasArgs {
  readonly expected: number;
  readonly next: number;
}

interface AtomicResult {
  readonly succeeded: boolean;
  readonly pre: number;
  readonly post: number;
}

function label(op: Op): string {
  const done = op.complete === Infinity ? 'open' : `${op.complete.toFixed(1)}`;
  return `w${op.w} ${op.id} ${op.op}(${JSON.stringify(op.args ?? {})}) -> ${op.outcome} ${JSON.stringify(op.result ?? op.error ?? null)} [${op.invoke.toFixed(1)}, ${done}]`;
}

/** The model input of one SharedCount or DistributedAtomicLong op; undefined: no constraint. */
export function counterInput(op: Op): LinOp<CounterInput> | undefined {
  const unknown = op.outcome === 'unknown';
  const base = { invoke: op.invoke, complete: op.complete, unknown, label: label(op) };
  if (op.outcome === 'fail') return undefined;
  switch (op.op) {
    case 'trySetCount': {
      const { expected, next } = op.args as CasArgs;
      if (unknown) return { ...base, input: { kind: 'cas', expected, next } };
      return op.result === true
        ? { ...base, input: { kind: 'set', from: expected, to: next } }
        : { ...base, input: { kind: 'notEqual', value: expected } };
    }
    case 'increment': {
      if (unknown) return { ...base, input: { kind: 'add', delta: 1 } };
      const result = op.result as AtomicResult;
      if (!result.succeeded) return undefined;
      return { ...base, input: { kind: 'set', from: result.pre, to: result.post } };
    }
    case 'compareAndSet': {
      const { expected, next } = op.args as CasArgs;
      if (unknown) return { ...base, input: { kind: 'cas', expected, next } };
      const result = op.result as AtomicResult;
      if (!result.succeeded) return undefined;
      return { ...base, input: { kind: 'set', from: expected, to: next } };
    }
    default:
      throw new Error(`counter checker: unknown op ${op.op}`);
  }
}

/**
 * Checks the history of one counter (`wl` 'count' or 'along'), whose value starts at 0 and
 * ends at `final` when given.
 */
export function checkCounter(
  events: readonly HistoryEvent[],
  wl: 'count' | 'along',
  final: FinalRead | undefined,
  maxSteps?: number,
): CheckResult {
  const ops = pairOps(events, wl);
  const inputs = ops.map(counterInput).filter((op) => op !== undefined);
  if (final !== undefined) {
    inputs.push({
      invoke: final.invoke,
      complete: final.complete,
      unknown: false,
      input: { kind: 'read', value: final.value },
      label: `final read -> ${final.value}`,
    });
  }
  const result = checkLinearizable(counterModel, inputs, maxSteps);
  const unknown = ops.filter((op) => op.outcome === 'unknown').length;
  const writes = ops.filter((op) => isWrite(op)).length;
  const summary = `${ops.length} ops, ${writes} acknowledged writes, ${unknown} unknown, final ${final?.value ?? '-'}, ${result.steps} search steps`;
  const checker = wl === 'count' ? 'counter:SharedCount' : 'counter:DistributedAtomicLong';
  if (result.linearizable) return { checker, ops: ops.length, violations: [], summary };
  const violation: Violation = {
    message: result.exhausted
      ? `undecided: the search gave up after ${result.steps} steps (treated as a violation)`
      : `not linearizable: at most ${result.deepest} of ${inputs.filter((op) => !op.unknown).length} known ops fit one order; there the value is ${result.deepestState} and the next op to complete cannot follow`,
    details: { linearizedTail: result.linearizedTail, stuck: result.stuck },
  };
  return { checker, ops: ops.length, violations: [violation], summary };
}

function isWrite(op: Op): boolean {
  if (op.outcome !== 'ok') return false;
  if (op.op === 'trySetCount') return op.result === true;
  return (op.result as AtomicResult).succeeded;
}
