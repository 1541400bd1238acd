/**
 * `npm run demo`: a worker pool on ZooKeeper (the master-worker pattern), with the master
 * killed mid-run.
 *
 * N worker processes, each with its own client and session, join `/workers` (GroupMember) and
 * elect a master (LeaderSelector). The master takes tasks from a queue at `/tasks`
 * (DistributedQueue in safe mode) and assigns them under `/assign/<worker>`; workers record
 * each finished task under `/status`. A third of the way through, the demo kills the master
 * process with SIGKILL: its session lives on until the server expires it, then another worker
 * becomes master, moves the dead worker's tasks and carries on. At the end the demo checks, in
 * ZooKeeper, that every task was done exactly once.
 *
 * Runs on a throwaway embedded ZooKeeper, or `--connect HOST:PORT` (everything then lives
 * under a fresh `/zkrecipes-demo-<hex>` node, deleted at the end). `--help` lists the options.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import {
  createFramework,
  isNodeExists,
  silentLogger,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { LeaderSelector } from '@zkrecipes/leader';
import { DistributedQueue, stringSerializer } from '@zkrecipes/queues';
import { TestingServer } from '@zkrecipes/testing';
import { Paths, taskName, type WorkerMessage } from './worker-pool/layout.js';
import { ProcessPool } from './worker-pool/process-pool.js';
import { checkPool, readStatus, type PoolStatus } from './worker-pool/status.js';

const USAGE = `usage: npm run demo -- [--connect HOST:PORT] [--workers N] [--tasks N]
                     [--session-timeout-ms MS] [--work-ms MIN-MAX]
defaults: an embedded ZooKeeper, 4 workers, 40 tasks, 2000 ms sessions, 150-350 ms per task`;

const startedAt = performance.now();
function say(message: string): void {
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1).padStart(5);
  console.log(`[${seconds}s] ${message}`);
}

function options() {
  const { values } = parseArgs({
    options: {
      connect: { type: 'string' },
      workers: { type: 'string', default: '4' },
      tasks: { type: 'string', default: '40' },
      'session-timeout-ms': { type: 'string', default: '2000' },
      'work-ms': { type: 'string', default: '150-350' },
      help: { type: 'boolean', default: false },
    },
  });
  const number = (name: string, text: string, min: number): number => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < min)
      throw new Error(`--${name} must be a whole number >= ${min}\n${USAGE}`);
    return value;
  };
  const [minMs = '', maxMs = minMs] = values['work-ms'].split('-');
  return {
    help: values.help,
    connect: values.connect,
    workers: number('workers', values.workers, 2),
    tasks: number('tasks', values.tasks, 3),
    sessionTimeoutMs: number('session-timeout-ms', values['session-timeout-ms'], 1000),
    workMs: [number('work-ms', minMs, 0), number('work-ms', maxMs, Number(minMs))] as const,
  };
}

function statusLine(status: PoolStatus, total: number, killed: ReadonlySet<string>): string {
  const master = status.master === undefined ? 'none' : status.master;
  const note =
    status.master !== undefined && killed.has(status.master)
      ? ' (killed; session not expired yet)'
      : '';
  return (
    `master ${master}${note} | workers ${status.workers.length === 0 ? 'none' : status.workers.join(' ')} | ` +
    `tasks ${status.pending} pending, ${status.assigned} assigned, ${status.done}/${total} done`
  );
}

async function createFolders(client: FrameworkClient): Promise<void> {
  for (const path of [Paths.WORKERS, Paths.ASSIGN, Paths.STATUS, Paths.CLAIMS]) {
    await client.create(path, { createParents: true }).catch((error: unknown) => {
      if (!isNodeExists(error)) throw error;
    });
  }
}

async function main(): Promise<boolean> {
  const config = options();
  if (config.help) {
    console.log(USAGE);
    return true;
  }
  const server = config.connect === undefined ? await TestingServer.start() : undefined;
  const connectString = config.connect ?? server!.connectString;
  const namespace = `zkrecipes-demo-${randomBytes(4).toString('hex')}`;
  console.log(
    `worker-pool demo: ${config.workers} worker processes, ${config.tasks} tasks, ` +
      `${config.sessionTimeoutMs} ms sessions`,
  );
  console.log(
    `ZooKeeper ${connectString}${server ? ' (embedded TestingServer)' : ''}; ` +
      `everything lives under /${namespace}`,
  );

  const client = createFramework({
    connectString,
    namespace,
    logger: silentLogger,
    closeOnExit: true,
  });
  await client.start({ timeoutMs: 15_000 }); // rejects, saying which server and why, if unreachable
  await createFolders(client);

  const offered = Array.from({ length: config.tasks }, (_, i) => taskName(i + 1));
  const queue = new DistributedQueue<string>(client, Paths.TASKS, {
    serializer: stringSerializer(),
  });
  await queue.start();
  for (const task of offered) await queue.put(task);
  await queue.close();
  say(`queued ${offered.length} tasks at ${Paths.TASKS} (${offered[0]} .. ${offered.at(-1)})`);

  const ready = new Set<string>();
  const masters: string[] = [];
  const killed = new Set<string>();
  let killedAt = 0;
  let takeoverMs: number | undefined;
  let done = 0;
  const pool = new ProcessPool((message: WorkerMessage) => {
    switch (message.type) {
      case 'ready':
        ready.add(message.worker);
        say(`${message.worker} (pid ${message.pid}) joined ${Paths.WORKERS}`);
        break;
      case 'master':
        masters.push(message.worker);
        if (killed.size === 0) say(`${message.worker} is the master`);
        else {
          takeoverMs ??= performance.now() - killedAt;
          say(
            `${message.worker} is the new master, ${(takeoverMs / 1000).toFixed(2)} s after the kill`,
          );
        }
        break;
      case 'moved':
        say(
          `${message.worker} (master) moved ${message.task} from ${message.from} (gone) to ${message.to}`,
        );
        break;
      case 'done':
        done++;
        break;
      case 'dropped':
        say(`${message.worker} dropped ${message.task}: it was no longer assigned to it`);
        break;
    }
  });
  for (let i = 1; i <= config.workers; i++) {
    pool.spawn({
      id: `worker-${i}`,
      connectString,
      namespace,
      sessionTimeoutMs: config.sessionTimeoutMs,
      workMs: config.workMs,
      capacity: 2,
    });
  }

  const observer = new LeaderSelector(client, Paths.MASTER, () => undefined); // never started: reads only
  let status: PoolStatus | undefined;
  let reading = false;
  const ticker = setInterval(() => {
    if (reading) return;
    reading = true;
    readStatus(client, observer)
      .then((latest) => {
        status = latest;
        say(statusLine(latest, offered.length, killed));
      })
      .catch((error: unknown) => say(`status read failed: ${String(error)}`))
      .finally(() => (reading = false));
  }, 1000);

  const deadline = performance.now() + 50_000;
  const until = async (what: string, condition: () => boolean): Promise<void> => {
    while (!condition()) {
      if (performance.now() > deadline) throw new Error(`gave up waiting for ${what}`);
      await sleep(20);
    }
  };
  try {
    await until(
      'the workers and a master',
      () => ready.size === config.workers && masters.length > 0,
    );
    await until('a third of the tasks', () => done >= Math.ceil(offered.length / 3));
    const victim = masters.at(-1)!;
    const pid = pool.workers.get(victim)?.child.pid;
    say(
      `killing the master ${victim} (pid ${pid}) with SIGKILL: its session, its place in the ` +
        `election and its group node live on until the server expires it (${config.sessionTimeoutMs} ms)`,
    );
    killed.add(victim);
    killedAt = performance.now();
    await pool.kill(victim);
    await until('a new master', () => masters.some((worker) => !killed.has(worker)));
    await until(
      'every task done',
      () => done >= offered.length || (status?.done ?? 0) >= offered.length,
    );
    say(`all ${offered.length} tasks done; stopping the workers`);
  } finally {
    clearInterval(ticker);
    await pool.stopAll(10_000);
  }

  const check = await checkPool(client, offered);
  console.log(
    `final state: ${statusLine(await readStatus(client, observer), offered.length, killed)}`,
  );
  if (check.ok) {
    console.log(
      `check: ${offered.length} tasks offered, ${offered.length} done exactly once, ` +
        `queue and assignments empty: no task lost or done twice`,
    );
  } else {
    console.log(
      `check FAILED: lost [${check.lost.join(' ')}], done twice [${check.doneTwice.join(' ')}], ` +
        `unknown [${check.unknown.join(' ')}], ${check.pending} still queued, ${check.assigned} still assigned`,
    );
  }
  const perWorker = [...check.doneBy].map(([worker, count]) => `${worker} ${count}`).join(', ');
  console.log(
    `summary: masters ${masters.join(' -> ')}; takeover ` +
      `${takeoverMs === undefined ? '?' : (takeoverMs / 1000).toFixed(2)} s after SIGKILL ` +
      `(session timeout ${config.sessionTimeoutMs} ms); done per worker: ${perWorker}; ` +
      `${((performance.now() - startedAt) / 1000).toFixed(1)} s in all`,
  );

  await client.usingNamespace(undefined).delete(`/${namespace}`, { deleteChildren: true });
  await client.close();
  await server?.close();
  return check.ok;
}

main().then(
  (ok) => {
    process.exitCode = ok ? 0 : 1;
  },
  (error: unknown) => {
    console.error('demo failed:', error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
