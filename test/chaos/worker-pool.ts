// The runner's worker processes: spawn, signal, restart, ask, and never leave one behind.
//
// Every worker is killed when the runner ends, however it ends: close() kills what is left;
// an 'exit' handler SIGKILLs every live worker synchronously (process.exit, an uncaught error);
// SIGINT/SIGTERM/SIGHUP kill them and exit with the signal's status; and when the runner is
// SIGKILLed (a test runner's timeout), a watchdog shell per worker sees its pipe from the
// runner close and SIGKILLs the worker -- also a SIGSTOPped one, which could not notice the
// lost IPC channel itself. The watchdog checks the pid is still a chaos worker first.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { WorkerConfig, WorkerMessage, WorkerRequest } from './worker-config.js';

const WORKER_SCRIPT = new URL('./worker.js', import.meta.url).pathname;

const live = new Set<ChildProcess>();
let reaperInstalled = false;

function killAllNow(): void {
  for (const child of live) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  live.clear();
}

function installReaper(): void {
  if (reaperInstalled) return;
  reaperInstalled = true;
  process.on('exit', killAllNow);
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    process.once(signal, () => {
      killAllNow();
      // The exit handlers (ours, and @zkrecipes/testing's for the ZooKeepers) run on the way out.
      process.exit(code);
    });
  }
}

/** SIGKILLs `pid` when the runner's end of stdin closes without a newline first. */
function watchdog(pid: number): Writable | undefined {
  const script = `if ! read -r _; then grep -qa chaos/worker.js /proc/${pid}/cmdline 2>/dev/null && kill -9 ${pid}; fi`;
  const dog = spawn('/bin/sh', ['-c', script], { stdio: ['pipe', 'ignore', 'ignore'] });
  dog.on('error', () => undefined);
  dog.stdin?.on('error', () => undefined);
  dog.unref();
  (dog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return dog.stdin ?? undefined;
}

interface Pending {
  readonly resolve: (message: WorkerMessage | undefined) => void;
  readonly timer: NodeJS.Timeout;
}

/** One worker slot: its current process, restarted with the next incarnation when asked. */
export class WorkerHandle {
  readonly index: number;
  #config: WorkerConfig;
  #child: ChildProcess | undefined;
  #exited: Promise<void> = Promise.resolve();
  #ready: Promise<boolean> = Promise.resolve(false);
  #stopped = false;
  #nextReq = 1;
  readonly #pending = new Map<number, Pending>();

  constructor(config: WorkerConfig) {
    this.index = config.index;
    this.#config = config;
  }

  get incarnation(): number {
    return this.#config.incarnation;
  }

  get config(): WorkerConfig {
    return this.#config;
  }

  get alive(): boolean {
    return (
      this.#child !== undefined && this.#child.exitCode === null && this.#child.signalCode === null
    );
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Starts this incarnation's process; resolves once it is ready (false: it died or timed out). */
  start(readyTimeoutMs: number): Promise<boolean> {
    installReaper();
    const log = openSync(join(this.#config.runDir, `worker-${this.index}.log`), 'a');
    let child: ChildProcess;
    try {
      child = spawn(process.execPath, [WORKER_SCRIPT, JSON.stringify(this.#config)], {
        stdio: ['ignore', log, log, 'ipc'],
      });
    } finally {
      closeSync(log);
    }
    child.on('error', () => undefined);
    this.#child = child;
    this.#stopped = false;
    live.add(child);
    const dog = child.pid === undefined ? undefined : watchdog(child.pid);
    this.#exited = new Promise((resolve) => {
      child.once('exit', () => {
        live.delete(child);
        dog?.end('\n');
        for (const [reqId, pending] of this.#pending) {
          clearTimeout(pending.timer);
          pending.resolve(undefined);
          this.#pending.delete(reqId);
        }
        resolve();
      });
    });
    this.#ready = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), readyTimeoutMs);
      child.on('message', (message: WorkerMessage) => {
        if (message.type === 'ready') {
          clearTimeout(timer);
          resolve(true);
          return;
        }
        const pending = this.#pending.get(message.reqId);
        if (pending === undefined) return;
        this.#pending.delete(message.reqId);
        clearTimeout(pending.timer);
        pending.resolve(message);
      });
      void this.#exited.then(() => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    return this.#ready;
  }

  /** Sends a request; resolves the reply, or undefined on timeout or exit. */
  request(type: WorkerRequest['type'], timeoutMs: number): Promise<WorkerMessage | undefined> {
    const child = this.#child;
    if (child === undefined || !this.alive || !child.connected) return Promise.resolve(undefined);
    const reqId = this.#nextReq++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#pending.delete(reqId);
        resolve(undefined);
      }, timeoutMs);
      this.#pending.set(reqId, { resolve, timer });
      child.send({ type, reqId } satisfies WorkerRequest, (error) => {
        if (error === null) return;
        clearTimeout(timer);
        this.#pending.delete(reqId);
        resolve(undefined);
      });
    });
  }

  sigstop(): void {
    if (!this.alive) return;
    this.#child?.kill('SIGSTOP');
    this.#stopped = true;
  }

  sigcont(): void {
    if (!this.alive || !this.#stopped) return;
    this.#child?.kill('SIGCONT');
    this.#stopped = false;
  }

  /** SIGKILL (continuing a stopped process is not needed); resolves once it has exited. */
  async sigkill(): Promise<void> {
    if (this.alive) this.#child?.kill('SIGKILL');
    await this.#exited;
  }

  /** Starts the next incarnation (the old process must have exited). */
  restart(readyTimeoutMs: number): Promise<boolean> {
    this.#config = { ...this.#config, incarnation: this.#config.incarnation + 1 };
    return this.start(readyTimeoutMs);
  }

  /** Resolves once the process exited, or after `ms` (false). */
  async exited(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const done = await Promise.race([
      this.#exited.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), ms);
      }),
    ]);
    clearTimeout(timer);
    return done;
  }
}
