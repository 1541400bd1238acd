// At most one leader, the other election: every worker runs a LeaderSelector (autoRequeue) on
// one path. Each takeLeadership call is one leadership: it claims (history.ts) every 30-120 ms
// with the leadership's validUntil, for 100-600 ms or until its signal aborts or it is no
// longer valid, then records its end and returns, which gives the lock back.
import { LeaderSelector, type Leadership } from '@zkrecipes/leader';
import { monoFromPerformance, monoNow } from '../clock.js';
import { describeError } from '../outcome.js';
import type { Random } from '../random.js';
import { pause, startFresh, type WorkloadContext } from './workload-context.js';

export async function runSelector(ctx: WorkloadContext): Promise<void> {
  const random = ctx.random('selector');
  const { index, incarnation, paths } = ctx.config;
  let calls = 0;
  const lead = async (signal: AbortSignal, leadership: Leadership): Promise<void> => {
    calls += 1;
    await leadFor(ctx, `s${incarnation}.${calls}`, signal, leadership, random);
  };
  const selector = await startFresh(
    () =>
      new LeaderSelector(ctx.client, paths.selector, lead, {
        id: `w${index}.${incarnation}`,
        autoRequeue: true,
      }),
    (recipe) => recipe.start(),
    ctx.quiesce,
    (error) =>
      ctx.history.write({
        wl: 'selector',
        ev: 'note',
        what: 'start failed',
        detail: describeError(error),
      }),
  );
  if (selector === undefined) return;
  if (!ctx.quiesce.aborted) {
    await new Promise<void>((resolve) =>
      ctx.quiesce.addEventListener('abort', () => resolve(), { once: true }),
    );
  }
  await selector.close();
}

async function leadFor(
  ctx: WorkloadContext,
  hold: string,
  signal: AbortSignal,
  leadership: Leadership,
  random: Random,
): Promise<void> {
  const until = monoNow() + random.int(100, 600);
  for (;;) {
    const vu = monoFromPerformance(leadership.validUntil);
    ctx.history.write({ wl: 'selector', ev: 'claim', hold, vu });
    if (vu === null || vu <= monoNow() || signal.aborted || ctx.quiesce.aborted) break;
    if (monoNow() >= until) break;
    await pause(random.int(30, 120), signal);
  }
  ctx.history.write({ wl: 'selector', ev: 'end', hold });
}
