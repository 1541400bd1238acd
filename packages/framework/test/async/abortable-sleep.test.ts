import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, it } from 'node:test';

import { abortableSleep } from '../../src/async/abortable-sleep.js';

/** Lets settled promises run their callbacks. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('abortableSleep', () => {
  it('chains timers for sleeps longer than one Node timer allows (2^31 - 1 ms)', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    let done = false;
    void abortableSleep(3_000_000_000).then(() => (done = true));
    t.mock.timers.tick(2_147_483_647);
    await flush();
    assert.equal(done, false);
    t.mock.timers.tick(3_000_000_000 - 2_147_483_647 - 1);
    await flush();
    assert.equal(done, false);
    t.mock.timers.tick(1);
    await flush();
    assert.equal(done, true);
  });

  it('rejects with the reason when aborted, and at once when already aborted', async () => {
    const reason = new Error('stop');
    await assert.rejects(
      abortableSleep(60_000, AbortSignal.abort(reason)),
      (err) => err === reason,
    );
    const controller = new AbortController();
    const sleeping = abortableSleep(60_000, controller.signal);
    controller.abort(reason);
    await assert.rejects(sleeping, (err) => err === reason);
  });

  it('keeps nothing on the signal for a sleep that is over: 100 sleeps leave one shared listener at most', async () => {
    const controller = new AbortController();
    for (let i = 0; i < 100; i++) await abortableSleep(0, controller.signal);
    assert.ok(getEventListeners(controller.signal, 'abort').length <= 1);
  });
});
