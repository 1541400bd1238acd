// What every workload of a worker gets, and the one way calls are recorded.
import type { FrameworkClient } from '@zkrecipes/framework';
import type { HistoryWriter, Outcome, Workload } from '../history.js';
import { describeError, errorOutcome } from '../outcome.js';
import type { Random } from '../random.js';
import type { WorkerConfig } from '../worker-config.js';

export interface WorkloadContext {
  readonly client: FrameworkClient;
  readonly history: HistoryWriter;
  readonly config: WorkerConfig;
  /** Aborted when the runner asks the worker to quiesce: loops end, recipes close. */
  readonly quiesce: AbortSignal;
  /** This workload's own stream (seed, worker, incarnation, workload). */
  random(workload: Workload): Random;
}

/** Resolves after `ms`, or at once when `signal` aborts (never rejects). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Records the invoke of `op`, runs `call`, and records how it ended: `judge` maps a value to
 * its outcome and result; a thrown error is `fail` or `unknown` (outcome.ts). Resolves the
 * value, or undefined after an error.
 */
export async function recordCall<T>(
  ctx: WorkloadContext,
  wl: Workload,
  op: string,
  args: unknown,
  call: () => Promise<T>,
  judge: (value: T) => { outcome: Outcome; result: unknown },
): Promise<T | undefined> {
  const id = ctx.history.nextId();
  ctx.history.write({ wl, ev: 'invoke', id, op, ...(args === undefined ? {} : { args }) });
  try {
    const value = await call();
    const { outcome, result } = judge(value);
    ctx.history.write({ wl, ev: outcome, id, result });
    return value;
  } catch (error) {
    ctx.history.write({ wl, ev: errorOutcome(error), id, error: describeError(error) });
    return undefined;
  }
}

/**
 * Makes and starts a recipe, again with a fresh one after a failure (a recipe starts once),
 * until it starts or `signal` aborts (then undefined).
 */
export async function startFresh<R extends { close(): Promise<unknown> }>(
  make: () => R,
  start: (recipe: R) => Promise<void>,
  signal: AbortSignal,
  onError: (error: unknown) => void,
): Promise<R | undefined> {
  while (!signal.aborted) {
    const recipe = make();
    try {
      await start(recipe);
      return recipe;
    } catch (error) {
      onError(error);
      await recipe.close().catch(() => undefined);
      await pause(300, signal);
    }
  }
  return undefined;
}
