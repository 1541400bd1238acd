// SetPartitioner's acceptance run: workers in child processes share 64 partitions while one is
// SIGKILLed or one is added every few seconds. Ownership is checked from what the server
// applied: each worker writes `{ owner, token }` to a partition's data node through the
// partition's lock hold (a guarded transaction), and the runner orders every write of a
// partition by the node's mzxid: the fencing tokens must never go down, and one token must
// always be one owner's. Also measured: how long after a SIGKILL every partition the dead
// worker owned is written by another (at most the session timeout + 1 s), and the split once
// each change has settled (within one partition of even).
//
// SETPART_DURATION_MS (default 45000) sets how long workers are killed and added;
// SETPART_EVENT_MS (default 3000) the pause between two changes.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FrameworkClient } from '@zkrecipes/framework';
import { TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import type { PartitionWorkerConfig, PartitionWorkerMessage } from './set-partitioner-worker.js';

const WORKER_SCRIPT = new URL('./set-partitioner-worker.js', import.meta.url).pathname;
const PARTITIONS = Array.from({ length: 64 }, (_, i) => `p${String(i).padStart(2, '0')}`);
const INITIAL_WORKERS = 6;
const SESSION_TIMEOUT_MS = 3000;
const TIME_BOUNDARY_MS = 100;
const DURATION_MS = Number(process.env['SETPART_DURATION_MS'] ?? 45_000);
const EVENT_MS = Number(process.env['SETPART_EVENT_MS'] ?? 3000);

interface Write {
  readonly owner: string;
  readonly token: bigint;
  readonly mzxid: bigint;
  readonly at: number;
}

interface Worker {
  readonly id: string;
  readonly child: ChildProcess;
  alive: boolean;
  state: string;
  partitions: readonly string[];
}

/** Workers, their reports, and the writes they made, per partition. */
class Pool {
  readonly workers: Worker[] = [];
  readonly writes = new Map<string, Write[]>(PARTITIONS.map((p) => [p, []]));
  refused = 0;
  /** Workers that exited without being killed by the run: none may. */
  readonly crashed: string[] = [];
  #next = 0;

  constructor(readonly config: Omit<PartitionWorkerConfig, 'identifier'>) {}

  get live(): Worker[] {
    return this.workers.filter((w) => w.alive);
  }

  spawn(): Promise<Worker> {
    const id = `w${String(this.#next++).padStart(2, '0')}`;
    const config: PartitionWorkerConfig = { ...this.config, identifier: id };
    const child = spawn(process.execPath, [WORKER_SCRIPT, JSON.stringify(config)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const worker: Worker = { id, child, alive: true, state: 'NONE', partitions: [] };
    this.workers.push(worker);
    child.on('exit', (code, signal) => {
      if (worker.alive && signal !== 'SIGKILL') this.crashed.push(`${id} (${code ?? signal})`);
      worker.alive = false;
    });
    return new Promise((resolve, reject) => {
      child.on('message', (message: PartitionWorkerMessage) => {
        if (message.type === 'ready') resolve(worker);
        else if (message.type === 'state') {
          worker.state = message.state;
          worker.partitions = message.partitions;
        } else if (message.type === 'write') {
          this.writes.get(message.partition)!.push({
            owner: id,
            token: BigInt(message.token),
            mzxid: BigInt(message.mzxid),
            at: message.at,
          });
        } else this.refused++;
      });
      child.on('exit', (code, signal) => reject(new Error(`${id} exited (${code ?? signal})`)));
    });
  }

  /** The worker that wrote `partition` last (as far as the reports tell). */
  lastWriter(partition: string): string | undefined {
    const writes = this.writes.get(partition)!;
    let last: Write | undefined;
    for (const write of writes) if (last === undefined || write.mzxid > last.mzxid) last = write;
    return last?.owner;
  }

  /** Every live worker ACQUIRED, and together they own each partition once. */
  settled(): boolean {
    const live = this.live;
    if (!live.every((w) => w.state === 'ACQUIRED')) return false;
    const owned = live.flatMap((w) => w.partitions).sort();
    return owned.join() === PARTITIONS.join();
  }

  killAll(): void {
    for (const worker of this.workers) if (worker.alive) worker.child.kill('SIGKILL');
  }
}

describe('SetPartitioner with worker processes', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start({ tickTimeMs: 200, minSessionTimeoutMs: 400 });
    client = await startClient(server.connectString);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it(`${INITIAL_WORKERS} workers over 64 partitions, one SIGKILLed or one added every ${EVENT_MS} ms for ${DURATION_MS} ms: fenced writes never go back to an older token, a killed worker's partitions are owned again within the session timeout + 1 s, and each change settles within one partition of even`, async (t) => {
    const path = uniquePath('set-partitioner-workers');
    for (const partition of PARTITIONS) {
      await client.create(`${path}/data/${partition}`, { createParents: true });
    }
    const pool = new Pool({
      connectString: server.connectString,
      path,
      partitions: PARTITIONS,
      sessionTimeoutMs: SESSION_TIMEOUT_MS,
      timeBoundaryMs: TIME_BOUNDARY_MS,
    });
    const kills: { at: number; victim: string; owned: string[] }[] = [];
    const settles: { event: string; ms: number; sizes: number[] }[] = [];
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const settle = async (event: string, since: number): Promise<void> => {
      await waitFor(() => pool.settled(), {
        timeoutMs: SESSION_TIMEOUT_MS + 10_000,
        intervalMs: 10,
        message: `settled after ${event}`,
      });
      const sizes = pool.live.map((w) => w.partitions.length).sort((a, b) => a - b);
      settles.push({ event, ms: Date.now() - since, sizes });
      const even = PARTITIONS.length / pool.live.length;
      for (const size of sizes) {
        assert.ok(
          size >= Math.floor(even) && size <= Math.ceil(even),
          `after ${event}: sizes ${sizes.join(',')} for ${pool.live.length} workers`,
        );
      }
    };
    try {
      const startedAt = Date.now();
      await Promise.all(Array.from({ length: INITIAL_WORKERS }, () => pool.spawn()));
      await settle('start', startedAt);
      const end = Date.now() + DURATION_MS;
      let killNext = true;
      while (Date.now() < end) {
        // The schedule of the faults, not a synchronisation: the run waits for each to settle.
        await sleep(EVENT_MS);
        const at = Date.now();
        if (killNext) {
          const live = pool.live;
          const victim = live[random(live.length)]!;
          const owned = PARTITIONS.filter((p) => pool.lastWriter(p) === victim.id);
          victim.child.kill('SIGKILL');
          // Gone for the runner now, not when its exit is reported.
          victim.alive = false;
          kills.push({ at, victim: victim.id, owned });
          await settle(`kill ${victim.id}`, at);
        } else {
          const worker = await pool.spawn();
          await settle(`add ${worker.id}`, at);
        }
        killNext = !killNext;
      }
      // The writes right after the last settle have been reported.
      await sleep(500);
    } finally {
      pool.killAll();
    }

    // Fencing: in the order the server applied them, a partition's tokens never go down, and a
    // token is one owner's.
    let ownerChanges = 0;
    let writes = 0;
    for (const [partition, list] of pool.writes) {
      const ordered = [...list].sort((a, b) =>
        a.mzxid < b.mzxid ? -1 : a.mzxid > b.mzxid ? 1 : 0,
      );
      writes += ordered.length;
      for (let i = 1; i < ordered.length; i++) {
        const [before, write] = [ordered[i - 1]!, ordered[i]!];
        assert.ok(
          write.token > before.token ||
            (write.token === before.token && write.owner === before.owner),
          `${partition}: ${write.owner} wrote token ${write.token} after ${before.owner}'s ${before.token}`,
        );
        assert.notEqual(write.mzxid, before.mzxid);
        if (write.owner !== before.owner) ownerChanges++;
      }
    }

    // What the server holds agrees with the reports: each data node has its last write's token.
    // A worker killed (or stopped at the end) between its write and its report leaves a newer
    // mzxid than any report, by the same owner with the same token: the data says so.
    for (const [partition, list] of pool.writes) {
      const last = list.reduce<Write | undefined>(
        (a, w) => (a === undefined || w.mzxid > a.mzxid ? w : a),
        undefined,
      );
      const { data, stat } = await client.getData(`${path}/data/${partition}`);
      assert.deepEqual(JSON.parse(data.toString()), {
        owner: last!.owner,
        token: String(last!.token),
      });
      assert.ok(stat.mzxid >= last!.mzxid, `${partition}: ${stat.mzxid} < ${last!.mzxid}`);
    }
    assert.deepEqual(pool.crashed, []);

    // Every partition a killed worker owned is written by another within the session timeout + 1 s.
    const gaps: number[] = [];
    for (const kill of kills) {
      for (const partition of kill.owned) {
        const next = pool.writes
          .get(partition)!
          .filter((w) => w.owner !== kill.victim && w.at >= kill.at)
          .reduce((first, w) => Math.min(first, w.at), Infinity);
        gaps.push(next - kill.at);
      }
    }
    const maxGap = Math.max(...gaps);
    t.diagnostic(
      `${pool.workers.length} workers in all, ${kills.length} killed; ${writes} fenced writes, ${ownerChanges} owner changes, ${pool.refused} refused writes`,
    );
    t.diagnostic(
      `re-owned after a kill: ${gaps.length} partitions, max ${maxGap} ms, median ${gaps.sort((a, b) => a - b)[gaps.length >> 1]} ms`,
    );
    t.diagnostic(
      `settles: ${settles.map((s) => `${s.event} ${s.ms} ms [${s.sizes.join(',')}]`).join('; ')}`,
    );
    assert.ok(kills.length >= 3, `only ${kills.length} kills`);
    assert.ok(gaps.length > 0 && gaps.every(Number.isFinite), 'a partition was never re-owned');
    assert.ok(
      maxGap <= timing.ms(SESSION_TIMEOUT_MS + 1000),
      `a partition was re-owned ${maxGap} ms after its owner was killed`,
    );
  });
});
