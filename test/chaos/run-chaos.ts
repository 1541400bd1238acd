// The randomized fault-schedule suite, as a library (runChaos) and a script:
//   node test/dist/test/chaos/run-chaos.js [--seed N] [--duration 90] [--ops 200]
//        [--workers 5] [--out DIR] [--only mutex,leader,...]
// (`npm run chaos -- --seed N --duration 90`). See docs/chaos.md.
//
// A 3-node cluster; each worker process reaches each server through a FaultProxy of its own.
// Faults from the seeded schedule hit links, workers and ZooKeepers; then everything heals,
// settles, and every checker judges the histories the workers wrote.
import { mkdirSync, mkdtempSync, appendFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  createFramework,
  ExponentialBackoffRetry,
  silentLogger,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { FaultProxy, TestingCluster, uniquePath } from '@zkrecipes/testing';
import { monoNow } from './clock.js';
import { checkCache } from './checkers/cache-checker.js';
import type { CheckResult } from './checkers/check-result.js';
import { checkCounter } from './checkers/counter-checker.js';
import { checkLeader } from './checkers/leader-checker.js';
import { checkMutex } from './checkers/mutex-checker.js';
import { checkQueue } from './checkers/queue-checker.js';
import { convergeCache, drainQueue, finalRead, settle } from './end-phase.js';
import { FaultRunner } from './fault-runner.js';
import { pairOps, readHistories } from './history.js';
import { randomSeed } from './random.js';
import { reportTable, reportViolations } from './report.js';
import { describeFault, makeSchedule } from './schedule.js';
import { chaosPaths, type ChaosPaths } from './worker-config.js';
import { WorkerHandle } from './worker-pool.js';

export const CHECKERS = [
  'mutex',
  'leader:LeaderLatch',
  'leader:LeaderSelector',
  'counter:SharedCount',
  'counter:DistributedAtomicLong',
  'queue',
  'cache',
] as const;
export type CheckerName = (typeof CHECKERS)[number];

export interface ChaosOptions {
  readonly seed: number;
  /** Faults start within this many milliseconds (the run lasts longer: start, settle, checks). */
  readonly durationMs: number;
  /** Worker processes; at least 3. Default 5. */
  readonly workers?: number;
  /** Counter ops per worker and counter over the run: sets their pace. Default 200. */
  readonly counterOps?: number;
  /** Where histories and the report go. Default: a new dir under the OS temp dir. */
  readonly runDir?: string;
  /** Checkers whose violations fail the run. Default: all. */
  readonly enforced?: readonly CheckerName[];
  /** Progress lines. Default: none. */
  readonly log?: (line: string) => void;
}

export interface ChaosReport {
  readonly seed: number;
  readonly runDir: string;
  readonly results: readonly CheckResult[];
  /** True when an enforced checker found a violation. */
  readonly failed: boolean;
  readonly faults: { readonly scheduled: number; readonly done: number; readonly skipped: number };
  readonly wallMs: number;
  /** The table and the violations, as printed. */
  readonly text: string;
}

/** How long workers may take to start, to quiesce and to finish. */
const READY_MS = 60_000;
const QUIESCE_MS = 20_000;
const FINISH_MS = 20_000;

function sessionTimeoutMs(worker: number): number {
  return worker % 2 === 0 ? 3000 : 4000;
}

/** Runs one seed; resolves the report (it never throws for a violation: see `failed`). */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const wallStart = monoNow();
  const log = options.log ?? (() => undefined);
  const count = options.workers ?? 5;
  if (count < 3) throw new Error('runChaos: at least 3 workers (a cache worker and two consumers)');
  const enforced = new Set<string>(options.enforced ?? CHECKERS);
  const runDir = options.runDir ?? mkdtempSync(join(tmpdir(), `zkrecipes-chaos-${options.seed}-`));
  mkdirSync(runDir, { recursive: true });
  const consumers = [count - 2, count - 1];
  const killable = Array.from({ length: count }, (_, i) => i).filter((i) => !consumers.includes(i));
  const schedule = makeSchedule({
    seed: options.seed,
    durationMs: options.durationMs,
    workers: count,
    killable,
    sessionTimeoutMs,
  });
  writeFileSync(
    join(runDir, 'run.json'),
    JSON.stringify(
      {
        seed: options.seed,
        durationMs: options.durationMs,
        workers: count,
        counterOps: options.counterOps ?? 200,
        started: new Date().toISOString(),
        schedule,
      },
      null,
      2,
    ),
  );
  log(
    `chaos: seed ${options.seed}, ${schedule.length} faults over ${options.durationMs / 1000} s, ${count} workers, run dir ${runDir}`,
  );

  for (const fault of schedule) log(`chaos: scheduled ${describeFault(fault)}`);

  const cluster = await TestingCluster.start({ size: 3 });
  const proxies: FaultProxy[][] = [];
  const workers: WorkerHandle[] = [];
  let admin: FrameworkClient | undefined;
  try {
    admin = createFramework({
      connectString: cluster.connectString,
      sessionTimeoutMs: 10_000,
      retryPolicy: new ExponentialBackoffRetry({ baseSleepMs: 100, maxRetries: 10 }),
      logger: silentLogger,
    });
    await admin.start();
    const paths = chaosPaths(uniquePath('chaos'));
    await createRoots(admin, paths);
    for (let w = 0; w < count; w++) {
      proxies.push(
        await Promise.all(
          cluster.servers.map((server) => FaultProxy.start({ targetPort: server.port })),
        ),
      );
    }
    const counterOps = options.counterOps ?? 200;
    for (let w = 0; w < count; w++) {
      workers.push(
        new WorkerHandle({
          index: w,
          incarnation: 1,
          seed: options.seed,
          connectString: (proxies[w] ?? []).map((proxy) => proxy.connectString).join(','),
          sessionTimeoutMs: sessionTimeoutMs(w),
          runDir,
          paths,
          consumer: consumers.includes(w),
          cache: w === 0,
          counterIntervalMs: Math.max(50, options.durationMs / counterOps),
        }),
      );
    }
    const ready = await Promise.all(workers.map((worker) => worker.start(READY_MS)));
    if (ready.includes(false)) {
      throw new Error(
        `workers not ready: ${ready.map((ok, i) => (ok ? '' : i)).join(' ')} (see ${runDir}/worker-*.log)`,
      );
    }
    log(`chaos: ${count} workers ready; faults start`);

    const faultLog = join(runDir, 'faults.jsonl');
    const faults = new FaultRunner({
      cluster,
      proxies,
      workers,
      paths,
      log: (line) => log(`chaos: ${line}`),
      record: (entry) => appendFileSync(faultLog, `${JSON.stringify(entry)}\n`),
    });
    await faults.run(schedule, AbortSignal.timeout(options.durationMs + 120_000));
    log(`chaos: ${faults.done} faults done, ${faults.skipped} skipped; healing`);
    await faults.healAll();

    await settle(workers, log);
    const quiesced = await Promise.all(
      workers.map((worker) => worker.request('quiesce', QUIESCE_MS)),
    );
    if (quiesced.includes(undefined)) log('chaos: a worker did not confirm quiesce in time');
    const left = await drainQueue(admin, paths, log);
    const cache = await convergeCache(admin, paths, workers[0], log);
    const finals = {
      count: await finalRead(admin, paths.count, (data) => data.readInt32BE(0)),
      along: await finalRead(admin, paths.along, (data) => Number(data.readBigInt64BE(0))),
    };
    await Promise.all(workers.map((worker) => worker.request('finish', FINISH_MS)));
    await Promise.all(
      workers.map(async (worker) => (await worker.exited(5000)) || worker.sigkill()),
    );

    const { events, badLines } = readHistories(runDir);
    if (badLines > 0) log(`chaos: ${badLines} history lines cut short by a kill were skipped`);
    const cacheWrites = pairOps(events, 'cache').length;
    const results: CheckResult[] = [
      checkMutex(events),
      checkLeader(events, 'leader'),
      checkLeader(events, 'selector'),
      checkCounter(events, 'count', finals.count),
      checkCounter(events, 'along', finals.along),
      checkQueue(events, left),
      checkCache(cache.view, cache.server, cacheWrites),
    ];
    const failed = results.some(
      (result) => enforced.has(result.checker) && result.violations.length > 0,
    );
    const text = [
      `chaos: seed ${options.seed}, ${faults.done} faults (${faults.skipped} skipped), ${Math.round((monoNow() - wallStart) / 1000)} s`,
      reportTable(results, enforced),
      reportViolations(results),
      `chaos: ${failed ? 'FAILED' : 'passed'}; seed ${options.seed}; run dir ${runDir}`,
    ]
      .filter((part) => part !== '')
      .join('\n');
    writeFileSync(join(runDir, 'report.txt'), `${text}\n`);
    writeFileSync(
      join(runDir, 'violations.json'),
      JSON.stringify(results, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2),
    );
    return {
      seed: options.seed,
      runDir,
      results,
      failed,
      faults: { scheduled: schedule.length, done: faults.done, skipped: faults.skipped },
      wallMs: monoNow() - wallStart,
      text,
    };
  } finally {
    await Promise.all(workers.map((worker) => worker.sigkill()));
    await admin?.close().catch(() => undefined);
    await Promise.all(proxies.flat().map((proxy) => proxy.close()));
    await cluster.close();
  }
}

async function createRoots(admin: FrameworkClient, paths: ChaosPaths): Promise<void> {
  await admin.create(paths.root);
  for (const path of [paths.mutex, paths.leader, paths.selector, paths.queue, paths.cache])
    await admin.create(path);
  await admin.create(paths.count, { data: Buffer.alloc(4) });
  await admin.create(paths.along, { data: Buffer.alloc(8) });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      duration: { type: 'string', default: '90' },
      ops: { type: 'string', default: '200' },
      workers: { type: 'string', default: '5' },
      out: { type: 'string' },
      only: { type: 'string' },
    },
  });
  const seed = values.seed === undefined ? randomSeed() : Number(values.seed);
  const only = values.only?.split(',') as CheckerName[] | undefined;
  for (const name of only ?? []) {
    if (!CHECKERS.includes(name))
      throw new Error(`--only: unknown checker ${name}; one of ${CHECKERS.join(', ')}`);
  }
  console.log(
    `chaos: seed ${seed} (replay: npm run chaos -- --seed ${seed} --duration ${values.duration})`,
  );
  const report = await runChaos({
    seed,
    durationMs: Number(values.duration) * 1000,
    counterOps: Number(values.ops),
    workers: Number(values.workers),
    ...(values.out === undefined ? {} : { runDir: values.out }),
    ...(only === undefined ? {} : { enforced: only }),
    log: (line) => console.log(line),
  });
  console.log(report.text);
  process.exitCode = report.failed ? 1 : 0;
}
