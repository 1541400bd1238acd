import { DistributedDoubleBarrier } from '@zkrecipes/barriers';
import { HANG_GUARD_MS } from '../bench-context.js';
import { resultFromSamples } from '../result-line.js';
import { formatMs, Samples } from '../samples.js';
import type { Scenario } from '../scenario.js';
import { Checks } from '../checks.js';
import { RoundGate, runTogether } from '../sync.js';

const max = (values: readonly number[]): number => Math.max(...values);
const min = (values: readonly number[]): number => Math.min(...values);

/** 8. DistributedDoubleBarrier, 5 members on 5 clients, enter+leave rounds. */
export const barrierDouble: Scenario = {
  name: 'barrier.double',
  async run(context, path) {
    const members = 5;
    const rounds = context.size(20, 5);
    const warmupRounds = 1;
    const totalRounds = warmupRounds + rounds;
    const barrierPath = `${path}/barrier`;
    const clients = await context.newClients(members);

    const table = (): number[][] =>
      Array.from({ length: totalRounds }, () => new Array<number>(members).fill(0));
    const roundStart = new Array<number>(totalRounds).fill(0);
    const enterCalled = table();
    const enterReturned = table();
    const leaveReturned = table();
    let trip = 0;
    // In-process gate so that round r+1 starts only after every member has left round r.
    const roundGate = new RoundGate(members, () => {
      roundStart[trip] = performance.now();
      trip += 1;
    });

    await runTogether(members, async (m) => {
      for (let r = 0; r < totalRounds; r += 1) {
        await roundGate.arrive();
        const barrier = new DistributedDoubleBarrier(clients[m]!, barrierPath, members);
        enterCalled[r]![m] = performance.now();
        if (!(await barrier.enter({ timeoutMs: HANG_GUARD_MS })))
          throw new Error('enter() timed out');
        enterReturned[r]![m] = performance.now();
        if (!(await barrier.leave({ timeoutMs: HANG_GUARD_MS })))
          throw new Error('leave() timed out');
        leaveReturned[r]![m] = performance.now();
      }
    });

    const roundTime = new Samples();
    const enterTime = new Samples();
    let earlyEnters = 0;
    let earlyLeaves = 0;
    for (let r = warmupRounds; r < totalRounds; r += 1) {
      roundTime.add(max(leaveReturned[r]!) - roundStart[r]!);
      enterTime.add(max(enterReturned[r]!) - roundStart[r]!);
      // Nobody may pass enter() before every member called it, nor leave() before all called leave().
      if (min(enterReturned[r]!) < max(enterCalled[r]!)) earlyEnters += 1;
      if (min(leaveReturned[r]!) < max(enterReturned[r]!)) earlyLeaves += 1;
    }
    const checks = new Checks();
    checks.expect(
      earlyEnters === 0,
      `${earlyEnters} rounds where a member passed enter() before all had entered`,
    );
    checks.expect(
      earlyLeaves === 0,
      `${earlyLeaves} rounds where a member passed leave() before all had called leave()`,
    );
    return [
      resultFromSamples(
        'barrier.double',
        roundTime,
        undefined,
        checks.annotate(
          `${members} members, 1 client each; sample = one round, from the in-process start gate releasing ` +
            'all members to the last member returning from leave(); a new DistributedDoubleBarrier ' +
            `object per member per round; enter_all_p50_ms=${formatMs(enterTime.percentile(50))}` +
            `; early_enters=${earlyEnters} early_leaves=${earlyLeaves}; warmup=${warmupRounds} round`,
        ),
      ),
    ];
  },
};
