import type { FrameworkClient } from '@zkrecipes/framework';
import { LeaderSelector } from '@zkrecipes/leader';
import { HANG_GUARD_MS, type BenchContext } from '../bench-context.js';
import { resultFromSamples } from '../result-line.js';
import { formatMs, Samples } from '../samples.js';
import type { Scenario } from '../scenario.js';
import { Checks } from '../checks.js';
import { deferred, Mailbox, sleep } from '../sync.js';

interface Leadership {
  readonly candidate: Candidate;
  readonly enteredAt: number;
}

/** One LeaderSelector participant on its own client; it leads until told to give up. */
class Candidate {
  readonly client: FrameworkClient;
  readonly selector: LeaderSelector;
  readonly relinquishedAt = new Mailbox<number>();
  #relinquish = deferred();

  constructor(client: FrameworkClient, path: string, id: string, leaderships: Mailbox<Leadership>) {
    this.client = client;
    this.selector = new LeaderSelector(
      client,
      path,
      async (signal) => {
        leaderships.push({ candidate: this, enteredAt: performance.now() });
        const aborted = new Promise<void>((resolve) => {
          if (signal.aborted) resolve();
          signal.addEventListener('abort', () => resolve(), { once: true });
        });
        await Promise.race([this.#relinquish.promise, aborted]); // hold until told to stop
        this.#relinquish = deferred();
        this.relinquishedAt.push(performance.now()); // returning relinquishes leadership
      },
      { id, autoRequeue: true },
    );
  }

  relinquish(): void {
    this.#relinquish.resolve();
  }
}

async function startCandidate(
  context: BenchContext,
  electionPath: string,
  id: string,
  leaderships: Mailbox<Leadership>,
): Promise<Candidate> {
  const candidate = new Candidate(await context.newClient(), electionPath, id, leaderships);
  await candidate.selector.start();
  return candidate;
}

async function awaitParticipants(selector: LeaderSelector, expected: number): Promise<void> {
  const deadline = performance.now() + HANG_GUARD_MS;
  while ((await selector.getParticipants()).length !== expected) {
    if (performance.now() > deadline) {
      throw new Error(`participant count never reached ${expected}`);
    }
    await sleep(2);
  }
}

async function closeQuietly(selector: LeaderSelector): Promise<void> {
  try {
    await selector.close();
  } catch (error) {
    process.stderr.write(`[bench] warning: closing a LeaderSelector failed: ${String(error)}\n`);
  }
}

/**
 * 5. 5 LeaderSelector participants (autoRequeue); time from the leader giving up (returning
 * from takeLeadership, or closing its client) to the next takeLeadership() entry.
 */
function leaderFailover(closeLeaderClient: boolean): Scenario {
  const name = closeLeaderClient ? 'leader.failover.close' : 'leader.failover';
  return {
    name,
    async run(context, path) {
      const participants = 5;
      const rounds = context.size(30, 10);
      const electionPath = `${path}/election`;
      const leaderships = new Mailbox<Leadership>();
      const active: Candidate[] = [];
      for (let i = 0; i < participants; i += 1) {
        active.push(await startCandidate(context, electionPath, `p${i}`, leaderships));
      }

      const failover = new Samples();
      const closeCall = new Samples();
      const unstalledFailover = new Samples();
      let successorAfterCloseReturned = 0;
      const checks = new Checks();
      try {
        let current = await leaderships.take('first leader'); // initial election: not measured
        for (let round = 0; round < rounds; round += 1) {
          const leader = current.candidate;
          await awaitParticipants(leader.selector, participants); // everyone queued (untimed)
          let gaveUpAt: number;
          let closeReturnedAt = 0;
          if (closeLeaderClient) {
            gaveUpAt = performance.now();
            await leader.client.close(); // session ends, its lock node vanishes
            closeReturnedAt = performance.now();
            closeCall.add(closeReturnedAt - gaveUpAt);
          } else {
            leader.relinquish();
            gaveUpAt = await leader.relinquishedAt.take('relinquish timestamp');
          }
          const next = await leaderships.take('next leader');
          failover.add(next.enteredAt - gaveUpAt);
          if (closeLeaderClient && next.enteredAt > closeReturnedAt) {
            successorAfterCloseReturned += 1;
          } else if (closeLeaderClient) {
            unstalledFailover.add(next.enteredAt - gaveUpAt);
          }
          checks.expect(
            next.candidate !== leader,
            `round ${round}: leadership went back to the old leader`,
          );
          if (closeLeaderClient) {
            // replace the closed participant (untimed)
            active.splice(active.indexOf(leader), 1);
            await closeQuietly(leader.selector);
            active.push(
              await startCandidate(context, electionPath, `p${participants + round}`, leaderships),
            );
          }
          current = next;
        }
      } finally {
        for (const candidate of active) candidate.relinquish();
        await Promise.all(active.map((candidate) => closeQuietly(candidate.selector)));
      }
      const sample = closeLeaderClient
        ? `from just before FrameworkClient.close() on the leader's client to the next takeLeadership() ` +
          `entry; close_call_p50_ms=${formatMs(closeCall.percentile(50))}; ` +
          `successor_entered_after_close_returned=${successorAfterCloseReturned}/${rounds} ` +
          `(a successor that entered after close() returned; no JVM-global monitor here); ` +
          `p50_ms_of_other_rounds=${formatMs(unstalledFailover.percentile(50))}`
        : 'from just before the leader returns from takeLeadership() to the next takeLeadership() entry';
      return [
        resultFromSamples(
          name,
          failover,
          undefined,
          checks.annotate(
            `${participants} participants, 1 client each, LeaderSelector with autoRequeue; each round ` +
              `starts once all ${participants} are queued; sample = ${sample}`,
          ),
        ),
      ];
    },
  };
}

export const leaderFailoverRelinquish = leaderFailover(false);
export const leaderFailoverClose = leaderFailover(true);
