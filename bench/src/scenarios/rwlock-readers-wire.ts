import { randomUUID } from 'node:crypto';
import type { RawZooKeeperSession } from '@zkrecipes/testing';
import { resultFromSamples } from '../result-line.js';
import type { Scenario } from '../scenario.js';
import { Checks } from '../checks.js';
import { rate, runCyclesTogether } from '../sync.js';
import { withBareSessions } from './bare-sessions.js';

const READERS = 8;

/**
 * What the wire and the server allow for `rwlock.readers`, with no client library above the
 * protocol: 8 bare sessions (@zkrecipes/testing's RawZooKeeperSession: encode, write, match
 * the reply) each send a read lock cycle's requests, the protected ephemeral sequential create
 * with the children read in the same write, then the delete, and nothing else (no sorting, no
 * retry, no state). A floor for any Node client of this server on this machine: the ratio of
 * `rwlock.readers` to Curator cannot go above this line's ops/s over Curator's.
 */
export const rwlockReadersWire: Scenario = {
  name: 'extra.rwlock.readers.wire',
  async run(context, path) {
    const perReader = context.size(800, 160) / READERS;
    // Warmer than the peer's 5 cycles: a cold floor would understate what the wire allows.
    const warmupPerReader = context.size(200, 20);
    const lockPath = `${path}/rwlock`;
    return withBareSessions(context, READERS, { path, lockPath }, async (sessions) => {
      const cycle = async (session: RawZooKeeperSession): Promise<void> => {
        const created = session.create(`${lockPath}/_c_${randomUUID()}-__READ__`, undefined, {
          mode: 'EPHEMERAL_SEQUENTIAL',
        });
        const listed = session.getChildren(lockPath);
        const node = await created;
        await listed;
        await session.delete(node);
      };
      for (const session of sessions) {
        for (let i = 0; i < warmupPerReader; i += 1) await cycle(session);
      }
      const { samples, elapsedMs, cpuUsPerCycle } = await runCyclesTogether(
        READERS,
        perReader,
        (index) => cycle(sessions[index]!),
      );
      const total = READERS * perReader;
      const leftover = (await sessions[0]!.getChildren(lockPath)).length;
      const checks = new Checks();
      checks.expect(leftover === 0, `${leftover} nodes left after the last delete`);
      return [
        resultFromSamples(
          'extra.rwlock.readers.wire',
          samples,
          rate(total, elapsedMs),
          checks.annotate(
            `EXTRA: the floor of rwlock.readers: ${READERS} bare sessions x ${perReader} cycles ` +
              `of create(EPHEMERAL_SEQUENTIAL) + getChildren in one write, then delete; no ` +
              `client library; client_cpu_us_per_cycle=${cpuUsPerCycle.toFixed(0)}; ` +
              `warmup=${warmupPerReader}/session`,
          ),
        ),
      ];
    });
  },
};
