import { InterProcessReadWriteLock, type ReadLock } from '@zkrecipes/locks';
import { resultFromSamples } from '../result-line.js';
import type { Scenario } from '../scenario.js';
import { Checks } from '../checks.js';
import { Latch, rate, runCyclesTogether, runTogether } from '../sync.js';
import { acquireOrFail } from './lock-helpers.js';

/** 4. 8 readers must hold the read lock at once (phase A); then reader cycles (phase B). */
export const rwlockReaders: Scenario = {
  name: 'rwlock.readers',
  async run(context, path) {
    const readers = 8;
    const perReader = context.size(800, 160) / readers;
    const warmupPerReader = 5;
    const readLocks: ReadLock[] = [];
    for (const client of await context.newClients(readers)) {
      const readLock = new InterProcessReadWriteLock(client, `${path}/rwlock`).readLock();
      for (let i = 0; i < warmupPerReader; i += 1) {
        await acquireOrFail(readLock);
        await readLock.release();
      }
      readLocks.push(readLock);
    }

    // Phase A: every reader acquires and keeps holding until all 8 hold it at the same time.
    let concurrent = 0;
    let maxConcurrentA = 0;
    let firstAcquireAt = Number.POSITIVE_INFINITY;
    let allHeldAt = 0;
    let gaveUp = 0;
    const allHolding = new Latch(readers);
    await runTogether(readers, async (index) => {
      const readLock = readLocks[index]!;
      firstAcquireAt = Math.min(firstAcquireAt, performance.now());
      await acquireOrFail(readLock);
      concurrent += 1;
      maxConcurrentA = Math.max(maxConcurrentA, concurrent);
      if (concurrent === readers) allHeldAt = performance.now();
      allHolding.countDown();
      if (!(await allHolding.waitFor(10_000))) gaveUp += 1;
      concurrent -= 1;
      await readLock.release();
    });
    const allHeldMs = allHeldAt === 0 ? Number.NaN : allHeldAt - firstAcquireAt;

    // Phase B: all 8 readers cycle acquire+release as fast as they can.
    const phaseB = await runCyclesTogether(readers, perReader, async (index) => {
      const readLock = readLocks[index]!;
      await acquireOrFail(readLock);
      await readLock.release();
    });

    const total = readers * perReader;
    const checks = new Checks();
    checks.expect(
      maxConcurrentA === readers && gaveUp === 0,
      `only ${maxConcurrentA} of ${readers} readers held the read lock concurrently`,
    );
    return [
      resultFromSamples(
        'rwlock.readers',
        phaseB.samples,
        rate(total, phaseB.elapsedMs),
        checks.annotate(
          `phase A: max_concurrent_readers=${maxConcurrentA}/${readers} (all ${readers} held ` +
            `${Number.isNaN(allHeldMs) ? 'NaN' : allHeldMs.toFixed(3)} ms after the first acquire() call); ` +
            `phase B: ${readers} readers x ${perReader} cycles, sample = one readLock acquire()+release() cycle; ` +
            `warmup=${warmupPerReader}/reader; ` +
            `client_cpu_us_per_cycle=${phaseB.cpuUsPerCycle.toFixed(0)}`,
        ),
      ),
    ];
  },
};
