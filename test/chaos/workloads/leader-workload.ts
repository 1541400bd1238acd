// At most one leader: every worker runs a LeaderLatch on one path. While it leads it claims
// leadership (history.ts) every 50-150 ms: the time, the latch's validUntil, and its node,
// which names the leadership (a new session means a new node). Now and then a leader closes
// its latch and joins again with a new one, so leadership also moves without faults.
import { nodeName } from '@zkrecipes/framework';
import { LeaderLatch } from '@zkrecipes/leader';
import { monoFromPerformance, monoNow } from '../clock.js';
import { describeError } from '../outcome.js';
import { pause, recordCall, startFresh, type WorkloadContext } from './workload-context.js';

export async function runLeader(ctx: WorkloadContext): Promise<void> {
  const random = ctx.random('leader');
  const id = `w${ctx.config.index}.${ctx.config.incarnation}`;
  const join = (): Promise<LeaderLatch | undefined> =>
    startFresh(
      () => new LeaderLatch(ctx.client, ctx.config.paths.leader, { id }),
      (latch) => latch.start(),
      ctx.quiesce,
      (error) =>
        ctx.history.write({
          wl: 'leader',
          ev: 'note',
          what: 'start failed',
          detail: describeError(error),
        }),
    );
  let latch = await join();
  let rotateAt = monoNow() + random.between(3000, 9000);
  while (latch !== undefined && !ctx.quiesce.aborted) {
    await pause(random.int(50, 150), ctx.quiesce);
    // One synchronous snapshot: whether it leads, through which node, until when.
    const leads = latch.isLeader;
    const node = latch.ourPath;
    const vu = monoFromPerformance(latch.validUntil);
    if (!leads || node === undefined) continue;
    const hold = nodeName(node);
    ctx.history.write({ wl: 'leader', ev: 'claim', hold, vu });
    if (monoNow() < rotateAt || ctx.quiesce.aborted) continue;
    await leave(ctx, latch, hold);
    latch = await join();
    rotateAt = monoNow() + random.between(3000, 9000);
  }
  if (latch !== undefined) {
    const node = latch.ourPath;
    await leave(ctx, latch, node === undefined ? undefined : nodeName(node));
  }
}

/** Closes the latch; from the close on, the leadership `hold` (if it led) makes no claim. */
async function leave(
  ctx: WorkloadContext,
  latch: LeaderLatch,
  hold: string | undefined,
): Promise<void> {
  if (hold !== undefined) ctx.history.write({ wl: 'leader', ev: 'end', hold });
  await recordCall(
    ctx,
    'leader',
    'close',
    { hold },
    () => latch.close(),
    () => ({ outcome: 'ok', result: null }),
  );
}
