// Pure: no server needed (the close is the client's closed signal, an AbortSignal).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TIMED_OUT, WakeWait, waitForWake } from '../../src/recipe-support/wait-for-wake.js';

describe('WakeWait', () => {
  it('a wake that comes before the wait makes the wait resolve at once', async () => {
    const wait = new WakeWait();
    wait.wake();
    assert.equal(await wait.wait({ signal: undefined }), undefined);
    assert.equal(wait.ended, true);
  });

  it('a watcher firing after the deadline ended the wait finds it ended and does nothing', async () => {
    const wait = new WakeWait();
    assert.equal(wait.ended, false);
    await assert.rejects(wait.wait({ signal: AbortSignal.timeout(1) }), { name: 'TimeoutError' });
    assert.equal(wait.ended, true);
    wait.wake(); // the late watch
    assert.equal(wait.ended, true);
  });

  it('an abort rejects with its reason; the close rejects with ClosedError naming the path', async () => {
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
    const result = closing.wait({ signal: undefined, closed: client.signal, path: '/a' });
    client.abort();
    await assert.rejects(result, { name: 'ClosedError', path: '/a' });
    assert.equal(closing.ended, true);
    // Already closed: at once, unless the wake came first.
    await assert.rejects(new WakeWait().wait({ closed: client.signal }), { name: 'ClosedError' });
    const woken = new WakeWait();
    woken.wake();
    await woken.wait({ closed: client.signal });
  });
});

describe('waitForWake', () => {
  it('settles as the promise does, value or rejection', async () => {
    assert.equal(await waitForWake(Promise.resolve(7), {}), 7);
    const failure = new Error('failed');
    await assert.rejects(waitForWake(Promise.reject(failure), {}), (e) => e === failure);
  });

  it('resolves TIMED_OUT at the deadline, on time, when the promise never settles', async () => {
    const startMs = performance.now();
    const outcome = await waitForWake(new Promise(() => undefined), { deadline: startMs + 50 });
    const elapsedMs = performance.now() - startMs;
    assert.equal(outcome, TIMED_OUT);
    assert.ok(elapsedMs >= 45 && elapsedMs < 1000, `took ${elapsedMs} ms`);
  });

  it('a deadline already past still lets a settled promise answer first', async () => {
    assert.equal(await waitForWake(Promise.resolve('led'), { deadline: performance.now() }), 'led');
  });

  it('the close rejects with ClosedError; an abort wins over it', async () => {
    const client = new AbortController();
    const pending = waitForWake(new Promise(() => undefined), {
      closed: client.signal,
      path: '/p',
    });
    client.abort();
    await assert.rejects(pending, { name: 'ClosedError', path: '/p' });
    const reason = new Error('stop');
    await assert.rejects(
      waitForWake(new Promise(() => undefined), {
        signal: AbortSignal.abort(reason),
        closed: client.signal,
      }),
      (e) => e === reason,
    );
  });
});
