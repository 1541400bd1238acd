// A lock round: every client takes the mutex in turn many times; never two holders at once,
// fencing tokens strictly increasing in hand-off order, and nobody left waiting forever.
import type { FrameworkClient } from '@zkrecipes/framework';
import { InterProcessMutex } from '@zkrecipes/locks';

export interface LockRoundResult {
  readonly acquisitions: number;
  readonly overlaps: number;
  readonly tokenRegressions: number;
  /** Clients that did not finish their acquisitions within the settle time. */
  readonly stalled: number;
}

export async function lockHandoffRound(
  clients: readonly FrameworkClient[],
  path: string,
  perClient: number,
  settleMs: number,
): Promise<LockRoundResult> {
  let holders = 0;
  let overlaps = 0;
  let tokenRegressions = 0;
  let acquisitions = 0;
  let lastToken = -1n;
  const deadline = AbortSignal.timeout(settleMs);
  const results = await Promise.allSettled(
    clients.map(async (client) => {
      const mutex = new InterProcessMutex(client, path);
      for (let i = 0; i < perClient; i++) {
        const hold = await mutex.acquireHold(undefined, { signal: deadline });
        if (hold === undefined) throw new Error('acquireHold without a timeout gave nothing');
        holders += 1;
        if (holders > 1) overlaps += 1;
        if (hold.fencingToken <= lastToken) tokenRegressions += 1;
        lastToken = hold.fencingToken;
        acquisitions += 1;
        await new Promise((resolve) => setImmediate(resolve));
        holders -= 1;
        await mutex.release();
      }
    }),
  );
  const stalled = results.filter((result) => result.status === 'rejected').length;
  return { acquisitions, overlaps, tokenRegressions, stalled };
}
