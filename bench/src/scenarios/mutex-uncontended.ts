import { InterProcessMutex } from '@zkrecipes/locks';
import { resultFromSamples } from '../result-line.js';
import { Samples } from '../samples.js';
import type { Scenario } from '../scenario.js';
import { rate } from '../sync.js';
import { acquireOrFail } from './lock-helpers.js';

/**
 * 1. One client, acquire()+release() cycles on one InterProcessMutex, default (Curator)
 * release semantics. `mutex.uncontended.pipelined` (extra, not in the peer) is the same loop
 * with the opt-in `pipelineRelease`.
 */
function uncontended(name: string, pipelineRelease: boolean): Scenario {
  return {
    name,
    async run(context, path) {
      const n = context.size(2000, 300);
      const warmup = context.size(100, 30);
      const lock = new InterProcessMutex(await context.newClient(), `${path}/lock`, {
        pipelineRelease,
      });
      for (let i = 0; i < warmup; i += 1) {
        await acquireOrFail(lock);
        await lock.release();
      }
      const cycle = new Samples();
      const start = performance.now();
      for (let i = 0; i < n; i += 1) {
        const t0 = performance.now();
        await acquireOrFail(lock);
        await lock.release();
        cycle.add(performance.now() - t0);
      }
      const elapsed = performance.now() - start;
      const what = pipelineRelease
        ? 'EXTRA (not comparable with the peer): pipelineRelease=true, release() resolves once the delete is sent; '
        : '';
      return [
        resultFromSamples(
          name,
          cycle,
          rate(n, elapsed),
          `${what}1 client; sample = one acquire()+release() cycle; warmup=${warmup}`,
        ),
      ];
    },
  };
}

export const mutexUncontended = uncontended('mutex.uncontended', false);
export const mutexUncontendedPipelined = uncontended('extra.mutex.uncontended.pipelined', true);
