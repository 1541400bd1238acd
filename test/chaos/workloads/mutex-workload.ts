// Mutual exclusion: acquire the one InterProcessMutex, act under it for a while, release.
// Each act is a claim (history.ts): the time, the hold's validUntil and its fencing token. The
// holder stops acting as soon as the hold is no longer valid, as a careful user would.
import { nodeName } from '@zkrecipes/framework';
import { InterProcessMutex, type MutexHold } from '@zkrecipes/locks';
import { monoFromPerformance, monoNow } from '../clock.js';
import { describeError } from '../outcome.js';
import type { Random } from '../random.js';
import { pause, recordCall, type WorkloadContext } from './workload-context.js';

export async function runMutex(ctx: WorkloadContext): Promise<void> {
  const random = ctx.random('mutex');
  const mutex = new InterProcessMutex(ctx.client, ctx.config.paths.mutex);
  while (!ctx.quiesce.aborted) {
    const timeoutMs = random.int(500, 3000);
    const hold = await recordCall(
      ctx,
      'mutex',
      'acquire',
      { timeoutMs },
      () => mutex.acquireHold(timeoutMs),
      (value) =>
        value === undefined
          ? { outcome: 'fail', result: 'timed out' }
          : {
              outcome: 'ok',
              result: { lockPath: value.lockPath, token: value.fencingTokenString },
            },
    );
    if (hold === undefined) {
      await pause(random.int(50, 300), ctx.quiesce);
      continue;
    }
    await holdFor(ctx, hold, random.int(100, 600), random);
    await pause(random.int(20, 200), ctx.quiesce);
  }
}

async function holdFor(
  ctx: WorkloadContext,
  hold: MutexHold,
  ms: number,
  random: Random,
): Promise<void> {
  const id = nodeName(hold.lockPath);
  const claim = (): boolean => {
    const vu = monoFromPerformance(hold.validUntil);
    ctx.history.write({ wl: 'mutex', ev: 'claim', hold: id, vu, token: hold.fencingTokenString });
    return vu !== null && vu > monoNow();
  };
  hold.lost.addEventListener(
    'abort',
    () =>
      ctx.history.write({
        wl: 'mutex',
        ev: 'note',
        what: 'lost',
        detail: { hold: id, reason: describeError(hold.lost.reason) },
      }),
    { once: true },
  );
  const until = monoNow() + ms;
  while (claim() && monoNow() < until && !ctx.quiesce.aborted) {
    await pause(random.int(30, 120), ctx.quiesce);
  }
  ctx.history.write({ wl: 'mutex', ev: 'end', hold: id });
  await recordCall(
    ctx,
    'mutex',
    'release',
    { hold: id },
    () => hold.release(),
    () => ({ outcome: 'ok', result: null }),
  );
}
