// The end of a run, once every fault has healed: wait for the workers to reconnect, for the
// consumers to empty the queue and for the cache to agree with the server, then read the
// counters' final values. Every wait is bounded; what is still off when it runs out is what the
// checkers are given.
import { setTimeout as sleep } from 'node:timers/promises';
import type { FrameworkClient } from '@zkrecipes/framework';
import { decodeEnvelope } from '@zkrecipes/queues';
import { monoNow } from './clock.js';
import { diffViews, type ChildView } from './checkers/cache-checker.js';
import type { FinalRead } from './checkers/counter-checker.js';
import type { ChaosPaths, WorkerMessage } from './worker-config.js';
import type { WorkerHandle } from './worker-pool.js';

const SETTLE_MS = 40_000;
const DRAIN_MS = 30_000;
const CACHE_CONVERGE_MS = 25_000;

/** Waits until every worker is connected (bounded). */
export async function settle(
  workers: readonly WorkerHandle[],
  log: (line: string) => void,
): Promise<void> {
  const until = monoNow() + SETTLE_MS;
  for (;;) {
    const replies = await Promise.all(workers.map((worker) => worker.request('status', 5000)));
    const down = replies
      .map((reply, i) => (reply?.type === 'status' && reply.connected ? undefined : i))
      .filter((i) => i !== undefined);
    if (down.length === 0) return;
    if (monoNow() > until) {
      log(
        `chaos: workers ${down.join(', ')} still not connected after ${SETTLE_MS / 1000} s; checking anyway`,
      );
      return;
    }
    await sleep(250);
  }
}

/** Waits for the consumers to empty the queue (bounded); resolves the items left in it. */
export async function drainQueue(
  admin: FrameworkClient,
  paths: ChaosPaths,
  log: (line: string) => void,
): Promise<string[]> {
  const until = monoNow() + DRAIN_MS;
  for (;;) {
    const children = await admin.getChildren(paths.queue);
    if (children.length === 0) return [];
    if (monoNow() > until) {
      log(`chaos: ${children.length} items still queued after ${DRAIN_MS / 1000} s`);
      const items: string[] = [];
      for (const child of children) {
        try {
          const { data } = await admin.getData(`${paths.queue}/${child}`);
          items.push(...decodeEnvelope(data).map((item) => item.toString('utf8')));
        } catch {
          // taken meanwhile
        }
      }
      return items;
    }
    await sleep(250);
  }
}

async function serverView(admin: FrameworkClient, path: string): Promise<ChildView[]> {
  const views: ChildView[] = [];
  for (const name of await admin.getChildren(path)) {
    try {
      const { data, stat } = await admin.getData(`${path}/${name}`);
      views.push({ name, data: Buffer.from(data).toString('utf8'), version: stat.version });
    } catch {
      // deleted meanwhile (an ephemeral whose session just ended)
    }
  }
  return views;
}

/** Compares the cache worker's view with the server's until they agree (bounded). */
export async function convergeCache(
  admin: FrameworkClient,
  paths: ChaosPaths,
  holder: WorkerHandle | undefined,
  log: (line: string) => void,
): Promise<{ view: ChildView[] | undefined; server: ChildView[] }> {
  const until = monoNow() + CACHE_CONVERGE_MS;
  for (;;) {
    const server = await serverView(admin, paths.cache);
    const reply: WorkerMessage | undefined = await holder?.request('view', 5000);
    const view = reply?.type === 'view' ? reply.view?.slice() : undefined;
    if (view !== undefined && diffViews(view, server).length === 0) return { view, server };
    if (monoNow() > until) {
      log(`chaos: the cache still differs from the server after ${CACHE_CONVERGE_MS / 1000} s`);
      return { view, server };
    }
    await sleep(250);
  }
}

/**
 * The value of a counter once everything settled. A write first (it goes through the leader
 * and is applied on our server before its reply), so the read after it sees every write made.
 */
export async function finalRead(
  admin: FrameworkClient,
  path: string,
  decode: (data: Buffer) => number,
): Promise<FinalRead> {
  const invoke = monoNow();
  await admin.create(`${path}-sync`, { mode: 'EPHEMERAL_SEQUENTIAL' });
  const { data } = await admin.getData(path);
  return { value: decode(Buffer.from(data)), invoke, complete: monoNow() };
}
