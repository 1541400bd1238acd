import { InterProcessMutex } from '@zkrecipes/locks';
import { resultFromSamples } from '../result-line.js';
import { Samples } from '../samples.js';
import type { Scenario } from '../scenario.js';
import { Checks } from '../checks.js';
import { rate, runTogether } from '../sync.js';
import { acquireOrFail } from './lock-helpers.js';

/**
 * 2. 8 clients (8 sessions) cycle on one lock, hold ~0 ms; sample = time blocked in acquire();
 * an in-process holder counter asserts mutual exclusion.
 */
export const mutexContended: Scenario = {
  name: 'mutex.contended',
  async run(context, path) {
    const clients = 8;
    const perClient = context.size(1600, 200) / clients;
    const warmupPerClient = 5;
    const locks: InterProcessMutex[] = [];
    for (const client of await context.newClients(clients)) {
      const lock = new InterProcessMutex(client, `${path}/lock`);
      for (let i = 0; i < warmupPerClient; i += 1) {
        await acquireOrFail(lock);
        await lock.release();
      }
      locks.push(lock);
    }
    const result = await contend(locks, perClient, path);
    const total = clients * perClient;
    return [
      resultFromSamples(
        'mutex.contended',
        result.acquireWait,
        rate(total, result.elapsedMs),
        result.checks.annotate(
          `${clients} clients x ${perClient} cycles, hold ~0 ms; ops_per_s = handoffs/s; ` +
            `sample = time blocked in acquire(); max_holders=${result.maxHolders} ` +
            `violations=${result.violations}; warmup=${warmupPerClient}/client (uncontended)`,
        ),
      ),
    ];
  },
};

export interface ContendResult {
  readonly acquireWait: Samples;
  readonly elapsedMs: number;
  readonly maxHolders: number;
  readonly violations: number;
  readonly checks: Checks;
}

/** All locks cycle `perClient` times together; shared with the scale scenarios. */
export async function contend(
  locks: readonly InterProcessMutex[],
  perClient: number,
  path: string,
): Promise<ContendResult> {
  let holders = 0;
  let maxHolders = 0;
  let violations = 0;
  const acquireWait = new Samples();
  const elapsedMs = await runTogether(locks.length, async (index) => {
    const lock = locks[index]!;
    for (let i = 0; i < perClient; i += 1) {
      const t0 = performance.now();
      await acquireOrFail(lock);
      acquireWait.add(performance.now() - t0);
      holders += 1; // critical section: hold for ~0 ms (one microtask turn)
      const now = holders;
      maxHolders = Math.max(maxHolders, now);
      if (now !== 1) {
        violations += 1;
        process.stderr.write(
          `[bench] !!! FAIL: MUTUAL EXCLUSION VIOLATED: ${now} holders of ${path}\n`,
        );
      }
      await Promise.resolve();
      holders -= 1;
      await lock.release();
    }
  });
  const checks = new Checks();
  checks.expect(
    violations === 0,
    `mutual exclusion violated ${violations} times (max concurrent holders ${maxHolders})`,
  );
  return { acquireWait, elapsedMs, maxHolders, violations, checks };
}
