// One worker of the pool, in its own process with its own client (so its own session): joins
// /workers, does the tasks assigned to it, and takes part in the election for the master.
// Started by the demo with its configuration as the one argument; reports over the IPC
// channel; stops on the demo's 'stop' message, and exits if the demo goes away.
import { createFramework, silentLogger } from '@zkrecipes/framework';
import { GroupMember } from '@zkrecipes/group';
import { LeaderSelector } from '@zkrecipes/leader';
import type { DemoMessage, WorkerConfig, WorkerMessage } from './layout.js';
import { Paths } from './layout.js';
import { Master } from './master.js';
import { TaskRunner } from './task-runner.js';

const config = JSON.parse(process.argv[2] ?? '{}') as WorkerConfig;
const report = (message: WorkerMessage): void => {
  process.send?.(message);
};

const client = createFramework({
  connectString: config.connectString,
  namespace: config.namespace,
  sessionTimeoutMs: config.sessionTimeoutMs,
  connectionTimeoutMs: 10_000,
  // SIGTERM or Ctrl-C closes the session at once; only a hard kill leaves it to expire.
  closeOnExit: true,
  logger: silentLogger,
});
await client.start({ timeoutMs: 10_000 });

const group = new GroupMember(client, Paths.WORKERS, config.id, Buffer.from(`pid ${process.pid}`));
const runner = new TaskRunner(client, { worker: config.id, workMs: config.workMs, report });
const master = new Master(client, group, { worker: config.id, capacity: config.capacity, report });
const selector = new LeaderSelector(
  client,
  Paths.MASTER,
  async (signal) => {
    report({ type: 'master', worker: config.id, pid: process.pid });
    await master.lead(signal);
  },
  { id: config.id, autoRequeue: true },
);

await runner.start(); // the assignment folder exists before anyone can see this worker
await group.start();
await group.waitForInitialCreate({ timeoutMs: 10_000 });
await selector.start();
report({ type: 'ready', worker: config.id, pid: process.pid });

async function stop(): Promise<void> {
  await selector.close();
  await runner.stop();
  await group.close();
  await client.close();
  process.exit(0);
}

process.on('message', (message: DemoMessage) => {
  if (message.type === 'stop') void stop();
});
// The demo is gone (it crashed or was killed): do not linger.
process.on('disconnect', () => void stop());
