import { SimpleDistributedQueue } from '@zkrecipes/queues';
import { HANG_GUARD_MS } from '../bench-context.js';
import { resultFromSamples } from '../result-line.js';
import { formatMs, Samples } from '../samples.js';
import type { Scenario } from '../scenario.js';
import { Checks } from '../checks.js';
import { rate, runTogether, utf8 } from '../sync.js';

/** take() bounded by the hang guard (the peer's poll(60, SECONDS)). */
export async function takeOrFail(queue: SimpleDistributedQueue): Promise<Buffer> {
  const item = await queue.take({ timeoutMs: HANG_GUARD_MS });
  if (item === null) throw new Error(`queue take timed out after ${HANG_GUARD_MS} ms`);
  return item;
}

export interface FifoRun {
  readonly endToEnd: Samples;
  readonly put: Samples;
  readonly take: Samples;
  readonly elapsedMs: number;
  readonly checks: Checks;
  readonly counters: string;
}

/**
 * The producer offers `n` items ("<index>,<timestamp>") flat out while the consumer, started
 * at the same moment, takes them; checks FIFO order, duplicates, losses and emptiness after.
 */
export async function runFifo(
  producer: SimpleDistributedQueue,
  consumer: SimpleDistributedQueue,
  n: number,
  firstIndex = 0,
): Promise<FifoRun> {
  const put = new Samples();
  const take = new Samples();
  const endToEnd = new Samples();
  let firstPutAt = 0;
  let lastTakeAt = 0;
  const seen = new Uint8Array(n);
  let outOfOrder = 0;
  let duplicates = 0;
  await runTogether(2, async (role) => {
    if (role === 0) {
      for (let i = 0; i < n; i += 1) {
        const t0 = performance.now();
        if (i === 0) firstPutAt = t0;
        await producer.offer(utf8(`${firstIndex + i},${t0}`));
        put.add(performance.now() - t0);
      }
    } else {
      for (let expected = 0; expected < n; expected += 1) {
        const t0 = performance.now();
        const [indexText = '', stampText = ''] = (await takeOrFail(consumer))
          .toString('utf8')
          .split(',');
        const now = performance.now();
        take.add(now - t0);
        const index = Number(indexText) - firstIndex;
        endToEnd.add(now - Number(stampText));
        if (index !== expected) outOfOrder += 1;
        if (seen[index] === 1) duplicates += 1;
        seen[index] = 1;
        lastTakeAt = now;
      }
    }
  });
  const emptyAfter = (await consumer.poll()) === null;
  const missing = n - seen.reduce((sum, bit) => sum + bit, 0);
  const checks = new Checks();
  checks.expect(outOfOrder === 0, `${outOfOrder} items out of FIFO order`);
  checks.expect(duplicates === 0, `${duplicates} duplicate items`);
  checks.expect(missing === 0, `${missing} items lost`);
  checks.expect(emptyAfter, 'queue not empty after consuming all items');
  const counters =
    `fifo_violations=${outOfOrder} duplicates=${duplicates} missing=${missing}` +
    `; put_p50_ms=${formatMs(put.percentile(50))} put_p99_ms=${formatMs(put.percentile(99))}` +
    ` take_p50_ms=${formatMs(take.percentile(50))} take_p99_ms=${formatMs(take.percentile(99))}`;
  return { endToEnd, put, take, elapsedMs: lastTakeAt - firstPutAt, checks, counters };
}

/** 6. SimpleDistributedQueue, one producer client, one consumer client, running concurrently. */
export const queueFifo: Scenario = {
  name: 'queue.fifo',
  async run(context, path) {
    const n = context.size(2000, 300);
    const warmup = 50;
    const queuePath = `${path}/queue`;
    const producer = new SimpleDistributedQueue(await context.newClient(), queuePath);
    const consumer = new SimpleDistributedQueue(await context.newClient(), queuePath);
    try {
      for (let i = 0; i < warmup; i += 1) await producer.offer(utf8('warmup'));
      for (let i = 0; i < warmup; i += 1) await takeOrFail(consumer);
      const result = await runFifo(producer, consumer, n);
      return [
        resultFromSamples(
          'queue.fifo',
          result.endToEnd,
          rate(n, result.elapsedMs),
          result.checks.annotate(
            'recipe=SimpleDistributedQueue (offer/take); producer and consumer on separate clients, ' +
              'running concurrently; ops_per_s = items / (first offer start -> last take return); ' +
              'sample = offer start -> take return for that item (includes queueing behind the backlog); ' +
              `${result.counters}; warmup=${warmup} items`,
          ),
        ),
      ];
    } finally {
      await producer.close();
      await consumer.close();
    }
  },
};
