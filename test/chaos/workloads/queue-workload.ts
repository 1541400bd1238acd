// The total queue: every worker puts unique items (`w<worker>.<incarnation>.<n>`) into one
// DistributedQueue; consumer workers take them. Plain mode (no lock path): taking an item
// deletes its node before the consumer sees it, so each item should reach exactly one
// consumer. A consumer records the take the moment it gets the item.
import { DistributedQueue, stringSerializer } from '@zkrecipes/queues';
import { describeError } from '../outcome.js';
import { pause, recordCall, startFresh, type WorkloadContext } from './workload-context.js';

function noteStartFailure(ctx: WorkloadContext): (error: unknown) => void {
  return (error) =>
    ctx.history.write({
      wl: 'queue',
      ev: 'note',
      what: 'start failed',
      detail: describeError(error),
    });
}

export async function runProducer(ctx: WorkloadContext): Promise<void> {
  const random = ctx.random('queue');
  const queue = await startFresh(
    () =>
      new DistributedQueue(ctx.client, ctx.config.paths.queue, { serializer: stringSerializer() }),
    (recipe) => recipe.start(),
    ctx.quiesce,
    noteStartFailure(ctx),
  );
  let n = 0;
  try {
    while (queue !== undefined && !ctx.quiesce.aborted) {
      await pause(random.int(100, 400), ctx.quiesce);
      if (ctx.quiesce.aborted) break;
      n += 1;
      const item = `w${ctx.config.index}.${ctx.config.incarnation}.${n}`;
      await recordCall(
        ctx,
        'queue',
        'put',
        { item },
        () => queue.put(item),
        (node) => ({ outcome: 'ok', result: node }),
      );
    }
  } finally {
    await queue?.close();
  }
}

/** Starts consuming; `stop` ends it (the worker's finish, after the queue has drained). */
export async function startConsumer(
  ctx: WorkloadContext,
  stopped: AbortSignal,
): Promise<{ stop(): Promise<void> }> {
  const queue = await startFresh(
    () =>
      new DistributedQueue(ctx.client, ctx.config.paths.queue, {
        serializer: stringSerializer(),
        consumer: (item: string, { node }) => {
          ctx.history.write({ wl: 'queue', ev: 'take', item, node });
        },
      }),
    (recipe) => recipe.start(),
    stopped,
    noteStartFailure(ctx),
  );
  return { stop: async () => void (await queue?.close()) };
}
