// Pure: no server needed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sleepUnlessAborted, untilAborted } from '../src/until-aborted.js';

describe('untilAborted and sleepUnlessAborted', () => {
  it('sleepUnlessAborted sleeps, or rejects with the reason at once', async () => {
    await sleepUnlessAborted(1, undefined);
    const reason = new Error('stop');
    const startMs = performance.now();
    await assert.rejects(
      sleepUnlessAborted(60_000, AbortSignal.abort(reason)),
      (e) => e === reason,
    );
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
