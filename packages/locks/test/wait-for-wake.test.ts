// Pure: no server needed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sleepUnlessAborted, untilAborted, WakeWait } from '../src/wait-for-wake.js';

describe('WakeWait', () => {
  it('a wake that comes before the wait makes the wait return woken at once', async () => {
    const wait = new WakeWait();
    wait.wake();
    assert.equal(await wait.wait({ signal: undefined }), 'woken');
    assert.equal(wait.ended, true);
  });

  it('a watcher firing after the deadline ended the wait finds it ended and does nothing', async () => {
    const wait = new WakeWait();
    assert.equal(wait.ended, false);
    const deadline = AbortSignal.timeout(1);
    await assert.rejects(wait.wait({ signal: deadline }), { name: 'TimeoutError' });
    assert.equal(wait.ended, true);
    wait.wake(); // the late watch
    assert.equal(wait.ended, true);
  });

  it('an abort rejects with its reason and ends the wait; a closed client returns closed', async () => {
    const caller = new AbortController();
    const aborted = new WakeWait();
    const waiting = aborted.wait({ signal: caller.signal });
    assert.equal(aborted.ended, false);
    const reason = new Error('stop');
    caller.abort(reason);
    await assert.rejects(waiting, (error) => error === reason);
    assert.equal(aborted.ended, true);

    const client = new AbortController();
    const closing = new WakeWait();
    const result = closing.wait({ signal: undefined, closed: client.signal });
    client.abort();
    assert.equal(await result, 'closed');
    assert.equal(closing.ended, true);
  });

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
