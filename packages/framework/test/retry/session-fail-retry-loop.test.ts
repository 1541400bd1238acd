import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { isSessionExpired } from '../../src/errors/predicates.js';
import {
  ConnectionLossError,
  NoNodeError,
  SessionExpiredError,
} from '../../src/errors/zookeeper-error-classes.js';
import { RetryNTimes } from '../../src/retry/retry-n-times.js';
import { runSessionBound } from '../../src/retry/session-fail-retry-loop.js';
import { SessionFailedRetryPolicy } from '../../src/retry/session-failed-retry-policy.js';

/** A stand-in for the client: only the session id matters. */
function fakeSession(): { sessionId: bigint } {
  return { sessionId: 1n };
}

const noSleep = () => Promise.resolve();

describe('runSessionBound', () => {
  it('returns the body result when the session stays the same', async () => {
    const session = fakeSession();
    let runs = 0;
    const result = await runSessionBound(
      session,
      () => {
        runs++;
        return Promise.resolve('ok');
      },
      { mode: 'fail' },
    );
    assert.equal(result, 'ok');
    assert.equal(runs, 1);
  });

  it("mode 'fail': a session change during the body throws SessionExpiredError", async () => {
    const session = fakeSession();
    let runs = 0;
    await assert.rejects(
      runSessionBound(
        session,
        () => {
          runs++;
          session.sessionId += 1n;
          return Promise.resolve('ok');
        },
        { mode: 'fail' },
      ),
      (err: unknown) =>
        err instanceof SessionExpiredError &&
        err.message === 'SESSION_EXPIRED (-112): session changed during a session-bound operation',
    );
    assert.equal(runs, 1);
  });

  it("mode 'fail': losing the session (no id any more) counts as a change", async () => {
    const session: { sessionId: bigint | undefined } = { sessionId: 1n };
    await assert.rejects(
      runSessionBound(
        session,
        () => {
          session.sessionId = undefined;
          return Promise.resolve();
        },
        { mode: 'fail' },
      ),
      isSessionExpired,
    );
  });

  it("mode 'fail': a body error with the session changed becomes SessionExpiredError with that cause", async () => {
    const session = fakeSession();
    const loss = new ConnectionLossError();
    await assert.rejects(
      runSessionBound(
        session,
        () => {
          session.sessionId = 2n;
          return Promise.reject(loss);
        },
        { mode: 'fail' },
      ),
      (err: unknown) => isSessionExpired(err) && (err as Error).cause === loss,
    );
  });

  it('a body error with the session unchanged is rethrown as it is', async () => {
    const session = fakeSession();
    const noNode = new NoNodeError({ path: '/a' });
    for (const mode of ['fail', 'retry'] as const) {
      await assert.rejects(
        runSessionBound(session, () => Promise.reject(noNode), { mode }),
        (err) => err === noNode,
      );
    }
  });

  it("mode 'retry': runs the body again from the start after a session change", async () => {
    const session = fakeSession();
    const steps: string[] = [];
    let runs = 0;
    const result = await runSessionBound(
      session,
      async () => {
        runs++;
        steps.push(`create in ${session.sessionId}`);
        await Promise.resolve();
        if (runs === 1) session.sessionId = 2n; // expired and replaced mid-sequence
        steps.push(`set in ${session.sessionId}`);
        return runs;
      },
      { mode: 'retry', sleep: noSleep },
    );
    assert.equal(result, 2);
    assert.deepEqual(steps, ['create in 1', 'set in 2', 'create in 2', 'set in 2']);
  });

  it("mode 'retry': gives up as the policy says and throws SessionExpiredError", async () => {
    const session = fakeSession();
    let runs = 0;
    await assert.rejects(
      runSessionBound(
        session,
        () => {
          runs++;
          session.sessionId += 1n;
          return Promise.resolve();
        },
        {
          mode: 'retry',
          policy: new RetryNTimes({ n: 2, sleepBetweenRetriesMs: 0 }),
          sleep: noSleep,
        },
      ),
      isSessionExpired,
    );
    assert.equal(runs, 3);
  });

  it("mode 'retry': the default policy starts over at most 3 times", async () => {
    const session = fakeSession();
    let runs = 0;
    await assert.rejects(
      runSessionBound(
        session,
        () => {
          runs++;
          session.sessionId += 1n;
          return Promise.resolve();
        },
        { mode: 'retry' },
      ),
      isSessionExpired,
    );
    assert.equal(runs, 4);
  });

  it("mode 'retry': a SessionExpiredError from the body itself, session unchanged, is not rerun", async () => {
    const session = fakeSession();
    const expired = new SessionExpiredError({ path: '/a' });
    let runs = 0;
    await assert.rejects(
      runSessionBound(
        session,
        () => {
          runs++;
          return Promise.reject(expired);
        },
        { mode: 'retry', sleep: noSleep },
      ),
      (err) => err === expired,
    );
    assert.equal(runs, 1);
  });

  it("mode 'retry' with SessionFailedRetryPolicy stops at the first change", async () => {
    const session = fakeSession();
    let runs = 0;
    const policy = new SessionFailedRetryPolicy(
      new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 0 }),
    );
    await assert.rejects(
      runSessionBound(
        session,
        () => {
          runs++;
          session.sessionId += 1n;
          return Promise.resolve();
        },
        { mode: 'retry', policy },
      ),
      isSessionExpired,
    );
    assert.equal(runs, 1);
  });

  it('rejects an unknown mode', async () => {
    await assert.rejects(
      runSessionBound(fakeSession(), () => Promise.resolve(), {
        mode: 'RETRY' as 'retry',
      }),
      (err: unknown) =>
        (err as Error).message ===
        "INVALID_ARGUMENT: mode must be 'fail' or 'retry'; got \"RETRY\"",
    );
  });

  it('abort rejects with the reason', async () => {
    const reason = new Error('stop');
    await assert.rejects(
      runSessionBound(fakeSession(), () => Promise.resolve(), {
        mode: 'retry',
        signal: AbortSignal.abort(reason),
      }),
      (err) => err === reason,
    );
  });
});
