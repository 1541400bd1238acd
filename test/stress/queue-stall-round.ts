// A queue round: producers put while consumers take; every item must be taken exactly once,
// and no consumer may sit idle while items are queued (the stall a children watch counted as
// armed after it had fired caused).
import type { FrameworkClient } from '@zkrecipes/framework';
import { DistributedQueue, stringSerializer } from '@zkrecipes/queues';
import { settlesWithin } from './stress-clients.js';

export interface QueueRoundResult {
  readonly items: number;
  readonly lost: number;
  readonly duplicated: number;
  /** Items still queued on the server when the round gave up waiting for the consumers. */
  readonly stalledWith: number;
}

export async function queueStallRound(
  producers: readonly FrameworkClient[],
  consumers: readonly FrameworkClient[],
  path: string,
  itemsPerProducer: number,
  settleMs: number,
): Promise<QueueRoundResult> {
  const taken = new Map<string, number>();
  const queues = consumers.map(
    (client) =>
      new DistributedQueue(client, path, {
        serializer: stringSerializer(),
        consumer: (item: string) => {
          taken.set(item, (taken.get(item) ?? 0) + 1);
        },
      }),
  );
  const putters = producers.map(
    (client) => new DistributedQueue(client, path, { serializer: stringSerializer() }),
  );
  try {
    for (const queue of [...queues, ...putters]) await queue.start();
    // Bursts from every producer at once, with consumers taking meanwhile.
    await Promise.all(
      putters.map(async (queue, p) => {
        for (let i = 0; i < itemsPerProducer; i++) {
          await queue.put(`p${p}-${i}`);
          if (i % 7 === 6) await new Promise((resolve) => setImmediate(resolve));
        }
      }),
    );
    const items = producers.length * itemsPerProducer;
    await settlesWithin(() => taken.size === items, settleMs);
    const stalledWith = taken.size === items ? 0 : (await consumers[0]!.getChildren(path)).length;
    let duplicated = 0;
    for (const count of taken.values()) duplicated += count - 1;
    return { items, lost: items - taken.size - stalledWith, duplicated, stalledWith };
  } finally {
    await Promise.all([...queues, ...putters].map((queue) => queue.close()));
  }
}
