// One chaos worker process: `node worker.js '<WorkerConfig JSON>'`, started by the runner
// (worker-pool.ts) with an IPC channel. It connects through its three proxies, runs every
// workload at once on one client (one session), records its history, and answers the
// runner's requests. It exits when the runner says finish, or when the runner goes away.
import {
  createFramework,
  ExponentialBackoffRetry,
  silentLogger,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { historyFile, HistoryWriter, type Workload } from './history.js';
import { describeError } from './outcome.js';
import { seededRandom } from './random.js';
import type { WorkerConfig, WorkerMessage, WorkerRequest } from './worker-config.js';
import { runCacheWriter, startCache, type CacheHolder } from './workloads/cache-workload.js';
import { runCounters } from './workloads/counter-workload.js';
import { runLeader } from './workloads/leader-workload.js';
import { runSelector } from './workloads/selector-workload.js';
import { runMutex } from './workloads/mutex-workload.js';
import { runProducer, startConsumer } from './workloads/queue-workload.js';
import type { WorkloadContext } from './workloads/workload-context.js';

/** How long quiesce and finish may take before the worker answers anyway. */
const STEP_LIMIT_MS = 15_000;

const config = JSON.parse(process.argv[2] ?? '') as WorkerConfig;
const history = new HistoryWriter(
  historyFile(config.runDir, config.index),
  config.index,
  config.incarnation,
);
const note = (what: string, detail?: unknown): void =>
  history.write({ wl: 'worker', ev: 'note', what, ...(detail === undefined ? {} : { detail }) });

function send(message: WorkerMessage): void {
  process.send?.(message);
}

/** `promise`, or undefined after `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

process.on('disconnect', () => {
  // The runner is gone: nobody will read what comes next.
  history.close();
  process.exit(3);
});
process.on('unhandledRejection', (reason) => note('unhandled rejection', describeError(reason)));

note('start', { pid: process.pid, connectString: config.connectString });
const client: FrameworkClient = createFramework({
  connectString: config.connectString,
  sessionTimeoutMs: config.sessionTimeoutMs,
  connectionTimeoutMs: config.sessionTimeoutMs,
  retryPolicy: new ExponentialBackoffRetry({ baseSleepMs: 50, maxRetries: 4 }),
  logger: silentLogger,
});
client.connectionStates.subscribe((state) => note('state', state));
client.unhandledErrors.subscribe(({ error, context }) =>
  note('unhandled error', `${context}: ${describeError(error)}`),
);
await client.start();
if (!(await client.blockUntilConnected({ timeoutMs: 30_000 }))) {
  note('could not connect');
  history.close();
  process.exit(2);
}

const quiesce = new AbortController();
const stopped = new AbortController();
const ctx: WorkloadContext = {
  client,
  history,
  config,
  quiesce: quiesce.signal,
  random: (workload: Workload) =>
    seededRandom(config.seed, `worker-${config.index}.${config.incarnation}.${workload}`),
};
const loops = [runMutex, runLeader, runSelector, runCounters, runProducer, runCacheWriter].map(
  (run) => run(ctx).catch((error: unknown) => note(`${run.name} failed`, describeError(error))),
);
const consumer = config.consumer ? await startConsumer(ctx, stopped.signal) : undefined;
const cache: CacheHolder | undefined = config.cache
  ? await startCache(ctx, stopped.signal)
  : undefined;
note('ready');
send({ type: 'ready' });

process.on('message', (request: WorkerRequest) => {
  void answer(request);
});

async function answer(request: WorkerRequest): Promise<void> {
  switch (request.type) {
    case 'status':
      send({ type: 'status', reqId: request.reqId, connected: client.isConnected });
      return;
    case 'quiesce':
      quiesce.abort();
      await within(Promise.all(loops), STEP_LIMIT_MS);
      note('quiesced');
      send({ type: 'quiesce', reqId: request.reqId });
      return;
    case 'view':
      send({ type: 'view', reqId: request.reqId, view: cache?.view(), events: cache?.events ?? 0 });
      return;
    case 'finish':
      quiesce.abort();
      stopped.abort();
      await within(
        Promise.all([...loops, consumer?.stop(), cache?.stop()]).then(() => client.close()),
        STEP_LIMIT_MS,
      );
      note('finished');
      history.close();
      process.send?.({ type: 'finish', reqId: request.reqId } satisfies WorkerMessage, () =>
        process.exit(0),
      );
      return;
  }
}
