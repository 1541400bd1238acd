// Pure: no server needed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WakeWait } from '../src/wait-for-wake.js';

const closedNever = new AbortController().signal;

describe('WakeWait', () => {
  it('a wake that comes before the wait makes the wait return woken at once', async () => {
    const wait = new WakeWait();
    wait.wake();
    assert.equal(await wait.wait({ timeoutMs: undefined, signal: undefined }), 'woken');
    assert.equal(wait.ended, true);
  });

  it('a watcher firing after the wait timed out finds it ended and does nothing', async () => {
    const wait = new WakeWait();
    assert.equal(wait.ended, false);
    assert.equal(
      await wait.wait({ timeoutMs: 0, signal: undefined, closed: closedNever }),
      'timeout',
    );
    assert.equal(wait.ended, true);
    wait.wake(); // the late watch
    assert.equal(wait.ended, true);
  });

  it('an abort rejects with its reason and ends the wait; a closed client returns closed', async () => {
    const caller = new AbortController();
    const aborted = new WakeWait();
    const waiting = aborted.wait({ timeoutMs: undefined, signal: caller.signal });
    assert.equal(aborted.ended, false);
    const reason = new Error('stop');
    caller.abort(reason);
    await assert.rejects(waiting, (error) => error === reason);
    assert.equal(aborted.ended, true);

    const client = new AbortController();
    const closing = new WakeWait();
    const result = closing.wait({ timeoutMs: undefined, signal: undefined, closed: client.signal });
    client.abort();
    assert.equal(await result, 'closed');
    assert.equal(closing.ended, true);
  });
});
