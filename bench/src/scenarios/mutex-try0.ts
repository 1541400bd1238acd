import { InterProcessMutex } from '@zkrecipes/locks';
import { resultFromSamples } from '../result-line.js';
import { Samples } from '../samples.js';
import type { Scenario } from '../scenario.js';
import { Checks } from '../checks.js';
import { rate } from '../sync.js';
import { acquireOrFail } from './lock-helpers.js';

/** 3. Client A holds the lock; client B calls acquire(0) repeatedly; every call must fail. */
export const mutexTry0: Scenario = {
  name: 'mutex.try0',
  async run(context, path) {
    const n = context.size(1000, 200);
    const warmup = 20;
    const lockPath = `${path}/lock`;
    const clientA = await context.newClient();
    const holder = new InterProcessMutex(clientA, lockPath);
    const tryer = new InterProcessMutex(await context.newClient(), lockPath);
    await acquireOrFail(holder);

    let warmupSucceeded = 0;
    for (let i = 0; i < warmup; i += 1) {
      if (await tryer.acquire(0)) {
        warmupSucceeded += 1;
        await tryer.release();
      }
    }
    let succeeded = 0;
    const attempt = new Samples();
    const start = performance.now();
    for (let i = 0; i < n; i += 1) {
      const t0 = performance.now();
      const got = await tryer.acquire(0);
      attempt.add(performance.now() - t0);
      if (got) {
        succeeded += 1;
        await tryer.release();
      }
    }
    const elapsed = performance.now() - start;
    const leftover = (await clientA.getChildren(lockPath)).length - 1; // minus A's own node
    await holder.release();
    const checks = new Checks();
    checks.expect(
      succeeded + warmupSucceeded === 0,
      `${succeeded + warmupSucceeded} acquire(0) calls returned true while the lock was held`,
    );
    checks.expect(leftover === 0, `${leftover} lock nodes left behind by failed attempts`);
    return [
      resultFromSamples(
        'mutex.try0',
        attempt,
        rate(n, elapsed),
        checks.annotate(
          `sample = one failing acquire(0) by client B while client A holds the lock; ` +
            `returned_false=${n - succeeded}/${n}; leftover_nodes=${leftover}; warmup=${warmup}`,
        ),
      ),
    ];
  },
};
