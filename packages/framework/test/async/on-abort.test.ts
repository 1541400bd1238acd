import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, it } from 'node:test';
import { onAbort } from '../../src/async/on-abort.js';
import { untilAborted } from '../../src/async/until-aborted.js';

describe('onAbort', () => {
  it('calls each listener once, in the order added, and not those that stopped listening', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    onAbort(controller.signal, () => calls.push('a'));
    const stopB = onAbort(controller.signal, () => calls.push('b'));
    onAbort(controller.signal, () => calls.push('c'));
    stopB();
    controller.abort();
    controller.abort();
    assert.deepEqual(calls, ['a', 'c']);
  });

  it('puts one listener on the signal however many waits share it', async () => {
    const controller = new AbortController();
    const waits = Array.from({ length: 10_000 }, () =>
      untilAborted(new Promise<never>(() => undefined), [controller.signal]),
    );
    assert.equal(getEventListeners(controller.signal, 'abort').length, 1);
    const reason = new Error('closed');
    controller.abort(reason);
    const outcomes = await Promise.allSettled(waits);
    assert.ok(outcomes.every((o) => o.status === 'rejected' && o.reason === reason));
  });

  it('a finished wait stops listening: nothing is kept for it', async () => {
    const controller = new AbortController();
    const calls: number[] = [];
    const stop = onAbort(controller.signal, () => calls.push(1));
    stop();
    assert.equal(await untilAborted(Promise.resolve(7), [controller.signal]), 7);
    controller.abort();
    assert.deepEqual(calls, []);
  });

  it('a listener that throws does not stop the others; its error is not lost', async () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const boom = new Error('listener failed');
    onAbort(controller.signal, () => {
      throw boom;
    });
    onAbort(controller.signal, () => calls.push('after'));
    const uncaught = new Promise<unknown>((resolve) => {
      const listeners = process.listeners('uncaughtException');
      process.removeAllListeners('uncaughtException');
      process.once('uncaughtException', (error) => {
        for (const each of listeners) process.on('uncaughtException', each);
        resolve(error);
      });
    });
    controller.abort();
    assert.deepEqual(calls, ['after']);
    assert.equal(await uncaught, boom);
  });
});
