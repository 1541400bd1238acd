// Pure: no server needed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { abortableSleep, untilAborted } from '@zkrecipes/framework/recipe-support';

describe('untilAborted and abortableSleep', () => {
  it('abortableSleep sleeps, or rejects with the reason at once', async () => {
    await abortableSleep(1, undefined);
    const reason = new Error('stop');
    const startMs = performance.now();
    await assert.rejects(abortableSleep(60_000, AbortSignal.abort(reason)), (e) => e === reason);
    assert.ok(performance.now() - startMs < 100);
  });

  it('untilAborted settles as the work does, or rejects with the reason when the signal aborts first', async () => {
    const controller = new AbortController();
    assert.equal(await untilAborted(Promise.resolve(7), controller.signal), 7);
    const failure = new Error('failed');
    await assert.rejects(
      untilAborted(Promise.reject(failure), controller.signal),
      (e) => e === failure,
    );
    const reason = new Error('connection gone');
    const pending = untilAborted(new Promise(() => undefined), controller.signal);
    controller.abort(reason);
    await assert.rejects(pending, (e) => e === reason);
  });
});
