import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConnectionLossError } from '../../src/index.js';
import { LOOK_ONCE_ANSWER_WAIT_MS, LookOnceSignal } from '../../src/recipe-support/index.js';

describe('LookOnceSignal', () => {
  it('gives up by itself once no answer came within LOOK_ONCE_ANSWER_WAIT_MS', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    using look = new LookOnceSignal(new AbortController().signal, undefined);
    t.mock.timers.tick(LOOK_ONCE_ANSWER_WAIT_MS - 1);
    assert.equal(look.signal.aborted, false);
    t.mock.timers.tick(1);
    assert.equal(look.signal.aborted, true);
    assert.ok(look.signal.reason instanceof ConnectionLossError);
    assert.equal(look.gaveUp(look.signal.reason), true);
    assert.equal(look.gaveUp(new ConnectionLossError()), false, 'only its own reason');
  });

  it('gives up with the connection: its reason, answered like a timeout', () => {
    const connection = new AbortController();
    using look = new LookOnceSignal(connection.signal, new AbortController().signal);
    const lost = new ConnectionLossError({ detail: 'gone' });
    connection.abort(lost);
    assert.equal(look.signal.reason, lost);
    assert.equal(look.gaveUp(lost), true);
  });

  it("the caller's abort is the caller's: its reason, not a timeout", () => {
    const caller = new AbortController();
    using look = new LookOnceSignal(new AbortController().signal, caller.signal);
    caller.abort(new Error('stop'));
    assert.equal(look.signal.reason, caller.signal.reason);
    assert.equal(look.gaveUp(caller.signal.reason), false);
  });

  it('starts aborted when the caller or the connection already is, the caller first', () => {
    const caller = AbortSignal.abort(new Error('caller'));
    const connection = AbortSignal.abort(new ConnectionLossError());
    using both = new LookOnceSignal(connection, caller);
    assert.equal(both.signal.reason, caller.reason);
    assert.equal(both.gaveUp(caller.reason), false);
    using down = new LookOnceSignal(connection, undefined);
    assert.equal(down.signal.reason, connection.reason);
    assert.equal(down.gaveUp(connection.reason), true);
  });

  it('disposed, it neither times out nor follows its signals', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const connection = new AbortController();
    const caller = new AbortController();
    const look = new LookOnceSignal(connection.signal, caller.signal);
    look[Symbol.dispose]();
    t.mock.timers.tick(LOOK_ONCE_ANSWER_WAIT_MS * 2);
    connection.abort(new ConnectionLossError());
    caller.abort(new Error('late'));
    assert.equal(look.signal.aborted, false);
  });

  it("shared on the connection's signal: calls made together share one, which gives up in time and with the connection", (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const connection = new AbortController();
    using first = new LookOnceSignal(connection.signal, undefined, true);
    using second = new LookOnceSignal(connection.signal, undefined, true);
    assert.equal(second.signal, first.signal, 'one signal for calls made together');
    using own = new LookOnceSignal(connection.signal, new AbortController().signal, true);
    assert.notEqual(own.signal, first.signal, 'a call with its own signal: a signal of its own');
    t.mock.timers.tick(LOOK_ONCE_ANSWER_WAIT_MS - 1);
    assert.equal(first.signal.aborted, false, 'never before the answer wait');
    t.mock.timers.tick(20);
    assert.ok(first.signal.reason instanceof ConnectionLossError);
    assert.equal(first.gaveUp(first.signal.reason), true);
    using next = new LookOnceSignal(connection.signal, undefined, true);
    assert.notEqual(next.signal, first.signal, 'a signal that gave up is not shared again');
    const lost = new ConnectionLossError({ detail: 'gone' });
    connection.abort(lost);
    assert.equal(next.signal.reason, lost);
    assert.equal(next.gaveUp(lost), true);
  });
});
