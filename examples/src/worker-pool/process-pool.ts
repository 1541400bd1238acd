// The demo's side of the worker processes: start them, hear what they report, kill one, stop
// them all. A worker exits by itself if the demo dies (its IPC channel closes).
import { fork, type ChildProcess } from 'node:child_process';
import type { DemoMessage, WorkerConfig, WorkerMessage } from './layout.js';

const workerScript = new URL('./worker-process.js', import.meta.url);

/** One worker process as the demo sees it. */
export interface WorkerProcess {
  readonly id: string;
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
  alive: boolean;
}

/** Starts and stops the worker processes and passes their messages on. */
export class ProcessPool {
  readonly workers = new Map<string, WorkerProcess>();
  readonly #onMessage: (message: WorkerMessage) => void;

  constructor(onMessage: (message: WorkerMessage) => void) {
    this.#onMessage = onMessage;
  }

  /** Starts one worker process (its client connects in the background). */
  spawn(config: WorkerConfig): WorkerProcess {
    const child = fork(workerScript, [JSON.stringify(config)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const worker: WorkerProcess = {
      id: config.id,
      child,
      alive: true,
      exited: new Promise((resolve) => child.once('exit', () => resolve())),
    };
    void worker.exited.then(() => (worker.alive = false));
    child.on('message', (message: WorkerMessage) => this.#onMessage(message));
    this.workers.set(config.id, worker);
    return worker;
  }

  /** Kills a worker without warning: its session stays until the server expires it. */
  async kill(id: string): Promise<void> {
    const worker = this.workers.get(id);
    if (worker === undefined || !worker.alive) return;
    worker.child.kill('SIGKILL');
    await worker.exited;
  }

  /** Asks every live worker to stop (it closes its recipes and client), killing stragglers. */
  async stopAll(timeoutMs: number): Promise<void> {
    const live = [...this.workers.values()].filter((worker) => worker.alive);
    for (const worker of live) worker.child.send({ type: 'stop' } satisfies DemoMessage);
    const timer = setTimeout(() => {
      for (const worker of live) if (worker.alive) worker.child.kill('SIGKILL');
    }, timeoutMs);
    await Promise.all(live.map((worker) => worker.exited));
    clearTimeout(timer);
  }
}
