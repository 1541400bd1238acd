// Cache convergence: every worker changes the children of one node (its own persistent
// children `w<n>-<k>`: create, set, delete; and an ephemeral `e-w<n>` that goes with its
// session), and one worker keeps a PathChildrenCache of them. At the end the runner compares
// the cache's view with the server's.
import { CreateMode, nodeName } from '@zkrecipes/framework';
import { PathChildrenCache } from '@zkrecipes/caches';
import type { ChildView } from '../checkers/cache-checker.js';
import { describeError } from '../outcome.js';
import { pause, recordCall, startFresh, type WorkloadContext } from './workload-context.js';

export async function runCacheWriter(ctx: WorkloadContext): Promise<void> {
  const random = ctx.random('cache');
  const { index, incarnation, paths } = ctx.config;
  let n = 0;
  while (!ctx.quiesce.aborted) {
    await pause(random.int(150, 500), ctx.quiesce);
    if (ctx.quiesce.aborted) break;
    n += 1;
    const data = Buffer.from(`w${index}.${incarnation}.${n}`);
    const child = `${paths.cache}/w${index}-${random.int(0, 3)}`;
    const action = random.weighted([
      ['create', 3],
      ['set', 3],
      ['delete', 2],
      ['ephemeral', 1],
    ] as const);
    const ok = () => ({ outcome: 'ok' as const, result: null });
    switch (action) {
      case 'create':
        await recordCall(
          ctx,
          'cache',
          'create',
          { child },
          () => ctx.client.create(child, { data }),
          ok,
        );
        break;
      case 'set':
        await recordCall(
          ctx,
          'cache',
          'setData',
          { child },
          () => ctx.client.setData(child, data),
          ok,
        );
        break;
      case 'delete':
        await recordCall(ctx, 'cache', 'delete', { child }, () => ctx.client.delete(child), ok);
        break;
      case 'ephemeral': {
        const ephemeral = `${paths.cache}/e-w${index}`;
        await recordCall(
          ctx,
          'cache',
          'create',
          { child: ephemeral },
          () => ctx.client.create(ephemeral, { data, mode: CreateMode.EPHEMERAL }),
          ok,
        );
        break;
      }
    }
  }
}

/** The cache worker's PathChildrenCache; `view()` is what the runner compares. */
export interface CacheHolder {
  view(): ChildView[] | undefined;
  readonly events: number;
  stop(): Promise<void>;
}

export async function startCache(ctx: WorkloadContext, stopped: AbortSignal): Promise<CacheHolder> {
  let events = 0;
  const cache = await startFresh(
    () => new PathChildrenCache(ctx.client, ctx.config.paths.cache),
    async (recipe) => {
      recipe.on('childEvent', () => {
        events += 1;
      });
      await recipe.start();
    },
    stopped,
    (error) =>
      ctx.history.write({
        wl: 'cache',
        ev: 'note',
        what: 'start failed',
        detail: describeError(error),
      }),
  );
  return {
    view: () => (cache === undefined ? undefined : toViews(cache)),
    get events() {
      return events;
    },
    stop: () => cache?.close() ?? Promise.resolve(),
  };
}

function toViews(cache: PathChildrenCache): ChildView[] {
  return cache.getCurrentData().map((child) => ({
    name: nodeName(child.path),
    data: child.data?.toString('utf8') ?? '',
    version: child.stat.version,
  }));
}
