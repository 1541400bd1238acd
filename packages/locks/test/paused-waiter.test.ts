// The black-box finding behind "no stale grants": a waiter stopped (SIGSTOP) past its session
// timeout, whose predecessor let go while it was stopped. The deletion's watch event is read
// before the stall is noticed; the hand-over must not be granted on it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { FrameworkClient } from '@zkrecipes/framework';
import { TestingServer } from '@zkrecipes/testing';
import {
  describeTrials,
  pausedWaiterTrialCount,
  pausedWaiterTrials,
  type TrialHold,
} from '@zkrecipes/test-support';
import { InterProcessMutex } from '../src/index.js';

const pausedWaiter = fileURLToPath(new URL('./fixtures/paused-waiter.js', import.meta.url));

function mutexHold(client: FrameworkClient, path: string): Promise<TrialHold> {
  const mutex = new InterProcessMutex(client, path);
  return Promise.resolve({ held: mutex.acquire(), release: () => mutex.release() });
}

describe('InterProcessMutex with a waiter paused past its session timeout', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(() => server.close());

  it('the holder releases while the waiter is stopped and a third client takes the lock after the waiter session expired: on SIGCONT the waiter never resolves acquire() with an invalid hold or while the third client holds', async (t) => {
    const trials = pausedWaiterTrialCount(3);
    const results = await pausedWaiterTrials(
      { connectString: server.connectString, childScript: pausedWaiter, participate: mutexHold },
      trials,
    );
    t.diagnostic(describeTrials(results));
    assert.deepEqual(
      results.flatMap(({ stale }) => (stale === undefined ? [] : [stale])),
      [],
      'stale grants',
    );
  });
});
