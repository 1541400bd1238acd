import type { FrameworkClient } from '@zkrecipes/framework';
import { PathChildrenCache, StartMode } from '@zkrecipes/caches';
import { resultFromSamples, type ResultLine } from '../result-line.js';
import { Samples } from '../samples.js';
import type { Scenario } from '../scenario.js';
import { Checks } from '../checks.js';
import { Latch, rate, utf8 } from '../sync.js';

export interface CacheRunOptions {
  readonly name: string;
  readonly n: number;
  readonly warmup: number;
  /** Children created (untimed) before the cache starts; 0 for the peer scenario. */
  readonly existing: number;
}

/**
 * Client 1 runs a PathChildrenCache (cacheData) started with POST_INITIALIZED_EVENT; client 2
 * creates `n` children with sequential awaited creates, each carrying its start timestamp.
 */
export async function runCacheChildren(
  watcherClient: FrameworkClient,
  writerClient: FrameworkClient,
  path: string,
  options: CacheRunOptions,
  extraNotes: () => string = () => '',
): Promise<ResultLine> {
  const { name, n, warmup, existing } = options;
  const parent = `${path}/parent`;
  await writerClient.create(parent, { createParents: true });
  for (let start = 0; start < existing; start += 500) {
    const batch = Array.from({ length: Math.min(500, existing - start) }, (_, i) =>
      writerClient.create(`${parent}/e-${String(start + i).padStart(6, '0')}`, {
        data: utf8('existing'),
      }),
    );
    await Promise.all(batch);
  }

  const propagation = new Samples();
  const seen = new Set<string>();
  let duplicates = 0;
  let lastAddedAt = 0;
  let initializedAfterMs: number;
  const initialized = new Latch(1);
  const warmedUp = new Latch(warmup);
  const allAdded = new Latch(n);
  const cache = new PathChildrenCache(watcherClient, parent, { cacheData: true });
  try {
    cache.on('childEvent', (event) => {
      const now = performance.now();
      if (event.type === 'INITIALIZED') {
        initialized.countDown();
      } else if (event.type === 'CHILD_ADDED') {
        const child = event.data.path.slice(event.data.path.lastIndexOf('/') + 1);
        if (child.startsWith('w-')) {
          warmedUp.countDown();
          return;
        }
        if (!child.startsWith('c-')) return;
        propagation.add(now - Number((event.data.data ?? Buffer.alloc(0)).toString('utf8')));
        if (seen.has(child)) duplicates += 1;
        seen.add(child);
        lastAddedAt = now;
        allAdded.countDown();
      }
    });
    const startedAt = performance.now();
    await cache.start(StartMode.POST_INITIALIZED_EVENT);
    await initialized.wait('PathChildrenCache initialization');
    initializedAfterMs = performance.now() - startedAt;
    for (let i = 0; i < warmup; i += 1) {
      await writerClient.create(`${parent}/w-${i}`, { data: utf8(String(performance.now())) });
    }
    await warmedUp.wait('warm-up children');

    let firstCreateAt = 0;
    for (let i = 0; i < n; i += 1) {
      const stamp = performance.now();
      if (i === 0) firstCreateAt = stamp;
      await writerClient.create(`${parent}/c-${String(i).padStart(6, '0')}`, {
        data: utf8(String(stamp)),
      });
    }
    const writerMs = performance.now() - firstCreateAt;
    await allAdded.wait('all CHILD_ADDED events');
    const allSeen = lastAddedAt - firstCreateAt;

    const checks = new Checks();
    checks.expect(seen.size === n, `cache saw ${seen.size} distinct children, expected ${n}`);
    checks.expect(duplicates === 0, `${duplicates} duplicate CHILD_ADDED events`);
    const scale =
      existing > 0
        ? `EXTRA: ${existing} children exist before start, initialized_ms=${initializedAfterMs.toFixed(3)}; `
        : '';
    return resultFromSamples(
      name,
      propagation,
      rate(n, allSeen),
      checks.annotate(
        `${scale}PathChildrenCache(cacheData=true) on client 1; client 2 creates children with sequential ` +
          'synchronous create() calls; ops_per_s = n / (first create start -> last CHILD_ADDED); ' +
          `all_seen_ms=${allSeen.toFixed(3)} writer_ms=${writerMs.toFixed(3)}` +
          `; sample = create start -> CHILD_ADDED delivered to listener; duplicates=${duplicates}` +
          `; warmup=${warmup} children${extraNotes()}`,
      ),
    );
  } finally {
    await cache.close();
  }
}

/** 7. PathChildrenCache on one client, another client creates n children. */
export const cacheChildren: Scenario = {
  name: 'cache.children',
  async run(context, path) {
    const [watcher, writer] = [await context.newClient(), await context.newClient()];
    const n = context.size(1000, 200);
    return [
      await runCacheChildren(watcher, writer, path, {
        name: 'cache.children',
        n,
        warmup: 20,
        existing: 0,
      }),
    ];
  },
};
