// The black-box finding behind "no stale grants", for both elections: a participant waiting in
// line is stopped (SIGSTOP) past its session timeout, and the leader steps down while it is
// stopped. The deletion's watch event is read before the stall is noticed; leadership must not
// be granted on it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { filter, firstValueFrom } from 'rxjs';
import type { FrameworkClient } from '@zkrecipes/framework';
import { TestingServer } from '@zkrecipes/testing';
import {
  describeTrials,
  pausedWaiterTrialCount,
  pausedWaiterTrials,
  type TrialHold,
} from '@zkrecipes/test-support';
import { LeaderLatch, LeaderSelector } from '../src/index.js';
import { deferred } from './helpers.js';

const pausedParticipant = fileURLToPath(
  new URL('./fixtures/paused-participant.js', import.meta.url),
);

async function selectorHold(client: FrameworkClient, path: string): Promise<TrialHold> {
  const leading = deferred();
  const stepDown = deferred();
  const selector = new LeaderSelector(client, path, async () => {
    leading.resolve();
    await stepDown.promise;
  });
  await selector.start();
  return {
    held: leading.promise,
    release: async () => {
      stepDown.resolve();
      await selector.close();
    },
  };
}

async function latchHold(client: FrameworkClient, path: string): Promise<TrialHold> {
  const latch = new LeaderLatch(client, path);
  await latch.start();
  const held = firstValueFrom(latch.leadershipStates.pipe(filter(Boolean)));
  return { held, release: () => latch.close() };
}

const RECIPES = [
  ['LeaderSelector', 'selector', selectorHold, 'takeLeadership is never called'],
  ['LeaderLatch', 'latch', latchHold, 'isLeader is never set'],
] as const;

// The two run side by side: each trial mostly waits out its pause.
describe(
  'Elections with a participant paused past its session timeout',
  { concurrency: true },
  () => {
    let server: TestingServer;
    before(async () => {
      server = await TestingServer.start();
    });
    after(() => server.close());

    for (const [recipe, kind, participate, never] of RECIPES) {
      it(`${recipe}: the leader steps down while the participant is stopped and a third takes over after its session expired: on SIGCONT ${never} with invalid leadership or while the third leads`, async (t) => {
        const trials = pausedWaiterTrialCount(3);
        const results = await pausedWaiterTrials(
          {
            connectString: server.connectString,
            childScript: pausedParticipant,
            childArgs: [kind],
            participate,
          },
          trials,
        );
        t.diagnostic(describeTrials(results));
        assert.deepEqual(
          results.flatMap(({ stale }) => (stale === undefined ? [] : [stale])),
          [],
          'stale grants',
        );
      });
    }
  },
);
