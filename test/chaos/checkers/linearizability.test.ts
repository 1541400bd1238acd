import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkLinearizable, type LinOp } from './linearizability.js';
import { counterModel, type CounterInput } from './counter-checker.js';

function op(
  invoke: number,
  complete: number | undefined,
  input: CounterInput,
): LinOp<CounterInput> {
  return {
    invoke,
    complete: complete ?? Infinity,
    unknown: complete === undefined,
    input,
    label: JSON.stringify(input),
  };
}

describe('checkLinearizable (register model)', () => {
  it('orders concurrent writes the only way they fit', () => {
    const result = checkLinearizable(counterModel, [
      op(0, 10, { kind: 'set', from: 1, to: 2 }),
      op(1, 9, { kind: 'set', from: 0, to: 1 }),
      op(11, 12, { kind: 'read', value: 2 }),
    ]);
    assert.equal(result.linearizable, true);
  });

  it('refuses a write that must come after a read that completed before it began', () => {
    const result = checkLinearizable(counterModel, [
      op(0, 1, { kind: 'set', from: 0, to: 1 }),
      op(2, 3, { kind: 'read', value: 0 }),
    ]);
    assert.equal(result.linearizable, false);
    assert.ok(!result.linearizable && !result.exhausted);
    assert.ok(!result.linearizable && result.stuck.some((label) => label.includes('read')));
  });

  it('lets an unknown op take effect late, or never', () => {
    const late = checkLinearizable(counterModel, [
      op(0, undefined, { kind: 'add', delta: 1 }),
      op(5, 6, { kind: 'read', value: 0 }),
      op(7, 8, { kind: 'read', value: 1 }),
    ]);
    assert.equal(late.linearizable, true);
    const never = checkLinearizable(counterModel, [
      op(0, undefined, { kind: 'add', delta: 1 }),
      op(5, 6, { kind: 'read', value: 0 }),
    ]);
    assert.equal(never.linearizable, true);
  });

  it('does not let an unknown op take effect before it was invoked', () => {
    const result = checkLinearizable(counterModel, [
      op(0, 1, { kind: 'read', value: 1 }),
      op(2, undefined, { kind: 'add', delta: 1 }),
    ]);
    assert.equal(result.linearizable, false);
  });

  it('decides a 1000-op history of 5 concurrent writers quickly', () => {
    // Five writers, each op overlapping the others', with some unknown increments.
    const ops: LinOp<CounterInput>[] = [];
    let value = 0;
    for (let i = 0; i < 1000; i++) {
      const invoke = i * 10;
      if (i % 50 === 7) {
        ops.push(op(invoke, undefined, { kind: 'add', delta: 1 }));
        value += 1;
      } else {
        ops.push(op(invoke, invoke + 45, { kind: 'set', from: value, to: value + 1 }));
        value += 1;
      }
    }
    ops.push(op(20_000, 20_001, { kind: 'read', value }));
    const started = performance.now();
    const result = checkLinearizable(counterModel, ops);
    assert.equal(result.linearizable, true);
    assert.ok(performance.now() - started < 5000, `${performance.now() - started} ms`);
  });

  it('refutes a 1000-op history with one write told false halfway, without running out of steps', () => {
    const ops: LinOp<CounterInput>[] = [];
    let value = 0;
    for (let i = 0; i < 1000; i++) {
      const invoke = i * 10;
      if (i % 40 === 7) {
        // an unknown increment, later matched by the writes that follow it
        ops.push(op(invoke, undefined, { kind: 'add', delta: 1 }));
      } else if (i === 500) {
        // wrote value -> value + 1, but said false
        ops.push(op(invoke, invoke + 45, { kind: 'notEqual', value }));
      } else {
        ops.push(op(invoke, invoke + 45, { kind: 'set', from: value, to: value + 1 }));
        value += 1;
        continue;
      }
      value += 1;
    }
    const result = checkLinearizable(counterModel, ops);
    assert.equal(result.linearizable, false);
    assert.ok(!result.linearizable && !result.exhausted, `${result.steps} steps`);
  });
});
