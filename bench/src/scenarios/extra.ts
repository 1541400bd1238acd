import { InterProcessMutex } from '@zkrecipes/locks';
import { SimpleDistributedQueue } from '@zkrecipes/queues';
import { mntr, serverCounters } from '../four-letter.js';
import { resultFromSamples } from '../result-line.js';
import { formatMs, Samples } from '../samples.js';
import type { Scenario } from '../scenario.js';
import { Checks } from '../checks.js';
import { rate, utf8 } from '../sync.js';
import { runCacheChildren } from './cache-children.js';
import { contend } from './mutex-contended.js';
import { mutexOverhead } from './mutex-overhead.js';
import { mutexUncontendedPipelined } from './mutex-uncontended.js';
import { rwlockReadersWire } from './rwlock-readers-wire.js';
import { mutexContendedWire } from './mutex-contended-wire.js';
import { takeOrFail } from './queue-fifo.js';

const rssMb = (): number => process.memoryUsage().rss / 2 ** 20;

/**
 * mutex.contended with `waiters` clients: handoffs/s, time blocked in acquire(), and what the
 * server did per handoff (watch notifications sent, packets received; from `mntr`), which must
 * stay flat as waiters grow (each waiter watches only its predecessor: no herd).
 */
function mutexContendedScale(waiters: number): Scenario {
  const name = `extra.mutex.contended.w${waiters}`;
  return {
    name,
    async run(context, path) {
      const perClient = Math.max(2, Math.ceil(context.size(800, 200) / waiters));
      const locks = (await context.newClients(waiters)).map(
        (c) => new InterProcessMutex(c, `${path}/lock`),
      );
      for (const lock of locks) {
        await lock.acquire();
        await lock.release();
      }
      const before = serverCounters(await mntr(context.connectString));
      const rssBefore = rssMb();
      const result = await contend(locks, perClient, path);
      const after = serverCounters(await mntr(context.connectString));
      const handoffs = waiters * perClient;
      const perHandoff =
        before && after
          ? `notifications_per_handoff=${
              after.notifications === undefined || before.notifications === undefined
                ? 'n/a'
                : ((after.notifications - before.notifications) / handoffs).toFixed(2)
            } ` +
            `server_packets_per_handoff=${((after.packets - before.packets) / handoffs).toFixed(2)}`
          : 'notifications_per_handoff=n/a (mntr not allowed)';
      return [
        resultFromSamples(
          name,
          result.acquireWait,
          rate(handoffs, result.elapsedMs),
          result.checks.annotate(
            `EXTRA: ${waiters} clients x ${perClient} cycles, hold ~0 ms; ops_per_s = handoffs/s; sample = time ` +
              `blocked in acquire(); ${perHandoff}; max_holders=${result.maxHolders} violations=${result.violations}; ` +
              `rss_mb=${rssMb().toFixed(1)} (before ${rssBefore.toFixed(1)}); warmup=1/client`,
          ),
        ),
      ];
    },
  };
}

/** cache.children with `existing` children already there when the cache starts. */
function cacheChildrenScale(existing: number, label: string): Scenario {
  const name = `extra.cache.children.${label}`;
  return {
    name,
    async run(context, path) {
      const [watcher, writer] = [await context.newClient(), await context.newClient()];
      const rssBefore = rssMb();
      const line = await runCacheChildren(
        watcher,
        writer,
        path,
        { name, n: context.size(500, 100), warmup: 20, existing },
        () => `; rss_mb=${rssMb().toFixed(1)} (before ${rssBefore.toFixed(1)})`,
      );
      return [line];
    },
  };
}

/**
 * SimpleDistributedQueue with `backlog` items waiting: the consumer drains them; ops_per_s =
 * items / drain time, sample = one take(). Checks FIFO order and that the queue ends empty.
 */
function queueBacklog(backlog: number): Scenario {
  const name = `extra.queue.fifo.backlog${backlog}`;
  return {
    name,
    async run(context, path) {
      const queuePath = `${path}/queue`;
      const producer = new SimpleDistributedQueue(await context.newClient(), queuePath);
      const consumer = new SimpleDistributedQueue(await context.newClient(), queuePath);
      try {
        const fillStart = performance.now();
        for (let start = 0; start < backlog; start += 500) {
          const batch = Array.from({ length: Math.min(500, backlog - start) }, (_, i) =>
            producer.offer(utf8(String(start + i))),
          );
          await Promise.all(batch);
        }
        const fillMs = performance.now() - fillStart;
        const rssBefore = rssMb();
        const take = new Samples();
        let outOfOrder = 0;
        const start = performance.now();
        for (let expected = 0; expected < backlog; expected += 1) {
          const t0 = performance.now();
          const index = Number((await takeOrFail(consumer)).toString('utf8'));
          take.add(performance.now() - t0);
          if (index !== expected) outOfOrder += 1;
        }
        const elapsed = performance.now() - start;
        const checks = new Checks();
        checks.expect(outOfOrder === 0, `${outOfOrder} items out of FIFO order`);
        checks.expect((await consumer.poll()) === null, 'queue not empty after draining');
        return [
          resultFromSamples(
            name,
            take,
            rate(backlog, elapsed),
            checks.annotate(
              `EXTRA: ${backlog} items queued first (pipelined offers, fill_ms=${fillMs.toFixed(1)}, ` +
                `fill_ops_per_s=${rate(backlog, fillMs).toFixed(1)}), then one consumer drains them; ` +
                `ops_per_s = items / drain time; sample = one take(); fifo_violations=${outOfOrder}; ` +
                `take_p50_ms=${formatMs(take.percentile(50))}; rss_mb=${rssMb().toFixed(1)} (before ${rssBefore.toFixed(1)})`,
            ),
          ),
        ];
      } finally {
        await producer.close();
        await consumer.close();
      }
    },
  };
}

/** Scale scenarios beyond the peer's (see docs/benchmarks.md); selected with `--scenario extra`. */
export const EXTRA_SCENARIOS: readonly Scenario[] = [
  mutexUncontendedPipelined,
  mutexOverhead,
  rwlockReadersWire,
  mutexContendedWire,
  mutexContendedScale(2),
  mutexContendedScale(8),
  mutexContendedScale(32),
  mutexContendedScale(128),
  cacheChildrenScale(1000, '1k'),
  cacheChildrenScale(10_000, '10k'),
  queueBacklog(100),
  queueBacklog(10_000),
];
