import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { Deadline } from '../../src/recipe-support/deadline.js';
import { EXPIRY_SLACK_MAX_MS } from '../../src/recipe-support/expiry-signals.js';

describe('Deadline', () => {
  it('calls with nearby deadlines share one signal, which aborts no earlier than either deadline and within the slack', async () => {
    // 500 ms: a slack of 5 ms; both are made before either signal is asked for.
    const first = Deadline.of({ timeoutMs: 500 });
    const second = Deadline.of({ timeoutMs: 500 });
    const far = Deadline.of({ timeoutMs: 2_000 });
    assert.ok(first.signal !== undefined);
    assert.equal(second.signal, first.signal, 'same timeout, made together: one signal');
    assert.notEqual(far.signal, first.signal, 'a deadline far from it: its own');
    let abortedAt = 0;
    first.signal.addEventListener('abort', () => (abortedAt = performance.now()));
    await sleep(600);
    assert.ok(
      abortedAt >= second.atMs!,
      `aborted ${abortedAt - second.atMs!} ms after the later deadline`,
    );
    assert.ok(
      abortedAt - first.atMs! < EXPIRY_SLACK_MAX_MS + 40,
      'within the slack (and timer jitter)',
    );
    assert.equal(first.isExpiry(first.signal.reason), true);
    assert.equal(second.isExpiry(second.signal.reason), true);
    assert.equal(far.signal?.aborted, false);
    for (const deadline of [first, second, far]) deadline.dispose();
  });

  it('calls one after another share the newest expiry; one replaced with no call left on it never aborts', async () => {
    // 1 s: a slack of 10 ms, so a loaded machine still makes the second within it.
    const one = Deadline.of({ timeoutMs: 1_000 });
    const signal = one.signal!;
    one.dispose();
    one.dispose(); // twice is once
    const next = Deadline.of({ timeoutMs: 1_000 });
    assert.equal(next.signal, signal, 'made after the first ended, within its slack: joins it');
    next.dispose();
    const later = Deadline.of({ timeoutMs: 5_000 });
    assert.notEqual(later.signal, signal, 'far from it: a new expiry replaces it');
    await sleep(1_100);
    assert.equal(signal.aborted, false, 'replaced with no call on it: its timer is gone');
    later.dispose();
  });

  it("with the caller's signal: either ends it; only the time running out is an expiry", async () => {
    const caller = new AbortController();
    const deadline = Deadline.of({ timeoutMs: 5_000, signal: caller.signal });
    const signal = deadline.signal!;
    caller.abort(new Error('stop'));
    assert.equal(signal.aborted, true);
    assert.equal(deadline.isExpiry(signal.reason), false);
    deadline.dispose();
    const timed = Deadline.of({ timeoutMs: 30, signal: new AbortController().signal });
    await sleep(60);
    const late = timed.signal!; // first asked after the time ran out: aborted at once
    assert.equal(late.aborted, true);
    assert.equal(timed.isExpiry(late.reason), true);
    timed.dispose();
  });
});
