// Counters: every op adds 1 to what its writer saw, so values only grow (counter-checker.ts
// relies on it). SharedCount: trySetCount(seen, seen + 1), with `seen` from the recipe's cache.
// DistributedAtomicLong: increment(), or compareAndSet(last seen, last seen + 1).
import { RetryNTimes } from '@zkrecipes/framework';
import { DistributedAtomicLong, SharedCount, type AtomicValue } from '@zkrecipes/atomic';
import { describeError } from '../outcome.js';
import { pause, recordCall, startFresh, type WorkloadContext } from './workload-context.js';

function atomicResult(value: AtomicValue<bigint>): { outcome: 'ok'; result: object } {
  return {
    outcome: 'ok',
    result: {
      succeeded: value.succeeded,
      pre: Number(value.preValue),
      post: Number(value.postValue),
    },
  };
}

export async function runCounters(ctx: WorkloadContext): Promise<void> {
  const random = ctx.random('count');
  const count = await startFresh(
    () => new SharedCount(ctx.client, ctx.config.paths.count, 0),
    (recipe) => recipe.start(),
    ctx.quiesce,
    (error) =>
      ctx.history.write({
        wl: 'count',
        ev: 'note',
        what: 'start failed',
        detail: describeError(error),
      }),
  );
  const along = new DistributedAtomicLong(
    ctx.client,
    ctx.config.paths.along,
    new RetryNTimes({ n: 10, sleepBetweenRetriesMs: 20 }),
  );
  let lastSeen = 0;
  const interval = ctx.config.counterIntervalMs;
  try {
    while (count !== undefined && !ctx.quiesce.aborted) {
      // Two counters, one op each per interval on average.
      await pause(random.between(0.25, 0.75) * interval, ctx.quiesce);
      if (ctx.quiesce.aborted) break;
      if (random.chance(0.5)) {
        const seen = count.getVersionedValue();
        if (seen.version < 0) continue; // not read yet: a versioned write cannot be sent
        const args = { expected: seen.value, next: seen.value + 1 };
        await recordCall(
          ctx,
          'count',
          'trySetCount',
          args,
          () => count.trySetCount(seen, args.next),
          (ok) => ({ outcome: 'ok', result: ok }),
        );
      } else if (random.chance(0.7)) {
        const value = await recordCall(
          ctx,
          'along',
          'increment',
          undefined,
          () => along.increment(),
          atomicResult,
        );
        if (value !== undefined)
          lastSeen = Number(value.succeeded ? value.postValue : value.preValue);
      } else {
        const args = { expected: lastSeen, next: lastSeen + 1 };
        const value = await recordCall(
          ctx,
          'along',
          'compareAndSet',
          args,
          () => along.compareAndSet(args.expected, args.next),
          atomicResult,
        );
        if (value !== undefined) lastSeen = value.succeeded ? args.next : Number(value.preValue);
      }
    }
  } finally {
    await count?.close();
  }
}
