import { randomUUID } from 'node:crypto';
import type { RawZooKeeperSession } from '@zkrecipes/testing';
import { hangGuard } from '../bench-context.js';
import { withBareSessions } from './bare-sessions.js';
import { Checks } from '../checks.js';
import { resultFromSamples } from '../result-line.js';
import { Samples } from '../samples.js';
import type { Scenario } from '../scenario.js';
import { rate, runTogether } from '../sync.js';

const WAITERS = 8;

/** A lock node's sequence: its last ten digits. */
function sequenceOf(name: string): number {
  return Number(name.slice(-10));
}

/**
 * Curator's lock protocol on a bare session, with nothing else: our node and the first look at
 * the queue in one write; while someone is ahead, a data watch on the node just ahead and, when
 * it fires (or the node is gone already), the children again. Resolves our node's path.
 */
async function acquire(session: RawZooKeeperSession, lockPath: string): Promise<string> {
  const created = session.create(`${lockPath}/_c_${randomUUID()}-lock-`, undefined, {
    mode: 'EPHEMERAL_SEQUENTIAL',
  });
  const listed = session.getChildren(lockPath);
  const node = await created;
  const ours = node.slice(node.lastIndexOf('/') + 1);
  let children = await listed;
  for (;;) {
    const sorted = children.sort((a, b) => sequenceOf(a) - sequenceOf(b));
    const index = sorted.indexOf(ours);
    if (index < 0) throw new Error(`${node} is gone from ${lockPath}`);
    if (index === 0) return node;
    const watch = await session.watchData(`${lockPath}/${sorted[index - 1]!}`);
    if (watch !== undefined) await watch.fired;
    children = await session.getChildren(lockPath);
  }
}

/**
 * What the server and the wire allow for `mutex.contended`, with no client library: 8 bare
 * sessions (@zkrecipes/testing's RawZooKeeperSession) run the peer's workload, each cycle
 * Curator's lock protocol as above, then the delete. A hand-over is a chain of server round
 * trips (the holder's fsynced delete, the notification, the successor's children read, its own
 * delete) that any client following the protocol waits for: this line's handoffs/s over
 * Curator's bounds what a library can gain here.
 */
export const mutexContendedWire: Scenario = {
  name: 'extra.mutex.contended.wire',
  async run(context, path) {
    const perSession = context.size(1600, 200) / WAITERS;
    // Warmer than the peer's 5 cycles: a cold floor would understate what the wire allows.
    const warmupPerSession = context.size(50, 10);
    const lockPath = `${path}/lock`;
    return withBareSessions(context, WAITERS, { path, lockPath }, async (sessions) => {
      for (const session of sessions) {
        for (let i = 0; i < warmupPerSession; i += 1) {
          await session.delete(await acquire(session, lockPath));
        }
      }
      let holders = 0;
      let violations = 0;
      const blocked = new Samples();
      const cpuBefore = process.cpuUsage();
      const elapsedMs = await runTogether(WAITERS, async (index) => {
        const session = sessions[index]!;
        for (let i = 0; i < perSession; i += 1) {
          const t0 = performance.now();
          const node = await hangGuard(acquire(session, lockPath), 'the lock');
          blocked.add(performance.now() - t0);
          holders += 1;
          if (holders !== 1) violations += 1;
          await Promise.resolve(); // hold for one microtask turn, as mutex.contended does
          holders -= 1;
          await session.delete(node);
        }
      });
      const cpu = process.cpuUsage(cpuBefore);
      const total = WAITERS * perSession;
      const checks = new Checks();
      checks.expect(violations === 0, `mutual exclusion violated ${violations} times`);
      const cpuUsPerCycle = (cpu.user + cpu.system) / total;
      return [
        resultFromSamples(
          'extra.mutex.contended.wire',
          blocked,
          rate(total, elapsedMs),
          checks.annotate(
            `EXTRA: the floor of mutex.contended: ${WAITERS} bare sessions x ${perSession} ` +
              `cycles of Curator's lock protocol (create + getChildren in one write, a data ` +
              `watch on the node ahead, the children again when it fires; then the delete), no ` +
              `client library; ops_per_s = handoffs/s; sample = time blocked in acquire; ` +
              `client_cpu_us_per_cycle=${cpuUsPerCycle.toFixed(0)}; ` +
              `warmup=${warmupPerSession}/session (uncontended)`,
          ),
        ),
      ];
    });
  },
};
