import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CallOrderGate } from '../../src/client/call-order-gate.js';

/** A promise and the function that resolves it. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** Enters `gate` and records `name` when its turn comes, then leaves at once. */
async function call(
  gate: CallOrderGate,
  seen: string[],
  name: string,
  prerequisite?: Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const turn = gate.enter(prerequisite, signal);
  try {
    if (turn !== undefined) await turn.ready;
    seen.push(name);
  } finally {
    turn?.done();
  }
}

describe('CallOrderGate', () => {
  it('lets a call go at once (no place in line) while nobody waits', () => {
    const gate = new CallOrderGate(new AbortController().signal);
    assert.equal(gate.enter(undefined), undefined);
  });

  it('holds every later call behind one that waits for its prerequisite, then releases them in call order', async () => {
    const gate = new CallOrderGate(new AbortController().signal);
    const namespace = deferred();
    const seen: string[] = [];
    const calls = [
      call(gate, seen, 'view 1', namespace.promise),
      call(gate, seen, 'plain 2'),
      call(gate, seen, 'view 3', namespace.promise),
      call(gate, seen, 'plain 4'),
    ];
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(seen, []);
    namespace.resolve();
    await Promise.all(calls);
    assert.deepEqual(seen, ['view 1', 'plain 2', 'view 3', 'plain 4']);
    assert.equal(gate.enter(undefined), undefined);
  });

  it('a waiting call whose signal aborts rejects with the reason and no longer holds the line', async () => {
    const gate = new CallOrderGate(new AbortController().signal);
    const never = new Promise<void>(() => {});
    const seen: string[] = [];
    const controller = new AbortController();
    const stuck = call(gate, seen, 'stuck', never, controller.signal);
    const next = call(gate, seen, 'next');
    const reason = new Error('given up');
    controller.abort(reason);
    await assert.rejects(stuck, (error) => error === reason);
    await next;
    assert.deepEqual(seen, ['next']);
  });

  it('closing rejects every waiting call with the close reason', async () => {
    const closed = new AbortController();
    const gate = new CallOrderGate(closed.signal);
    const never = new Promise<void>(() => {});
    const seen: string[] = [];
    const waiting = [call(gate, seen, 'a', never), call(gate, seen, 'b')];
    const reason = new Error('closed');
    closed.abort(reason);
    for (const each of waiting) await assert.rejects(each, (error) => error === reason);
    assert.deepEqual(seen, []);
  });
});
