import { randomUUID } from 'node:crypto';
import type { FrameworkClient } from '@zkrecipes/framework';
import { InterProcessMutex } from '@zkrecipes/locks';
import { resultFromSamples } from '../result-line.js';
import { formatMs, Samples } from '../samples.js';
import type { Scenario } from '../scenario.js';
import { Checks } from '../checks.js';
import { rate } from '../sync.js';
import { acquireOrFail } from './lock-helpers.js';

/**
 * The same requests an uncontended acquire()+release() sends, made by hand: a protected
 * ephemeral sequential create with the children read right behind it, then the delete.
 */
async function requestsOfOneCycle(client: FrameworkClient, lockPath: string): Promise<void> {
  const created = client.create(`${lockPath}/_c_${randomUUID()}-lock-`, {
    mode: 'EPHEMERAL_SEQUENTIAL',
    stat: true,
  });
  const listed = client.getChildren(lockPath);
  const { path } = await created;
  await listed;
  await client.delete(path);
}

/**
 * What the lock adds to its own requests: one client alternates, cycle by cycle, between an
 * InterProcessMutex acquire()+release() and the same requests made by hand. The server's
 * speed drifts by tens of percent between runs on a small machine; alternating per cycle
 * lets both see the same drift, so the difference of the two medians is the lock's own time.
 */
export const mutexOverhead: Scenario = {
  name: 'extra.mutex.overhead',
  async run(context, path) {
    const n = context.size(2000, 300);
    const warmup = context.size(500, 50);
    const client = await context.newClient();
    const lockPath = `${path}/lock`;
    const requestsPath = `${path}/requests`;
    await client.create(requestsPath, { createParents: true });
    const lock = new InterProcessMutex(client, lockPath);
    const mutexCycle = async (): Promise<void> => {
      await acquireOrFail(lock);
      await lock.release();
    };
    for (let i = 0; i < warmup; i += 1) {
      await mutexCycle();
      await requestsOfOneCycle(client, requestsPath);
    }
    const mutex = new Samples();
    const requests = new Samples();
    let mutexMs = 0;
    for (let i = 0; i < n; i += 1) {
      // Which goes first alternates too, so neither always follows the other's delete.
      const order = i % 2 === 0 ? [mutex, requests] : [requests, mutex];
      for (const samples of order) {
        const t0 = performance.now();
        await (samples === mutex ? mutexCycle() : requestsOfOneCycle(client, requestsPath));
        const ms = performance.now() - t0;
        samples.add(ms);
        if (samples === mutex) mutexMs += ms;
      }
    }
    const left = await client.getChildren(lockPath);
    const checks = new Checks();
    checks.expect(left.length === 0, `${left.length} lock nodes left after the last release`);
    const overheadMs =
      (mutex.percentile(50) ?? Number.NaN) - (requests.percentile(50) ?? Number.NaN);
    return [
      resultFromSamples(
        'extra.mutex.overhead',
        mutex,
        rate(n, mutexMs),
        checks.annotate(
          `EXTRA: 1 client alternating ${n} mutex cycles with ${n} cycles of the same requests ` +
            `made by hand; sample and ops_per_s = the mutex cycles only; requests_p50_ms=` +
            `${formatMs(requests.percentile(50))} requests_p90_ms=${formatMs(requests.percentile(90))} ` +
            `lock_overhead_p50_ms=${formatMs(overheadMs)}; warmup=${warmup} of each`,
        ),
      ),
    ];
  },
};
