// One ZooKeeper JVM: spawning, its log file, signals, waiting until it serves, and making
// sure it cannot outlive us. TestingServer and TestingCluster both run their JVMs through
// this class so that plumbing exists once.
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { fourLetterWord } from './four-letter-word.js';
import { logTail } from './log-tail.js';
import { processReaper } from './process-reaper.js';
import { spawnWithWatchdog, type Spawned } from './spawn-with-watchdog.js';

/**
 * JVM flags every server gets, before the caller's `jvmFlags`. Measured on a 2-core box,
 * spawn to first `imok`, median of 5: plain `java` 174 ms, these 155 ms. C1 only and
 * serial GC start fastest; 256 MB is plenty for tests; -UsePerfData also spares the
 * /tmp/hsperfdata files.
 */
export const BASE_JVM_FLAGS: readonly string[] = [
  '-Xmx256m',
  '-XX:+UseSerialGC',
  '-XX:TieredStopAtLevel=1',
  '-XX:-UsePerfData',
  '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
];

export interface ZooKeeperProcessOptions {
  java: string;
  classpath: string;
  /** `org.apache.zookeeper.server.ZooKeeperServerMain` or `...quorum.QuorumPeerMain`. */
  mainClass: string;
  configFile: string;
  /** Added after BASE_JVM_FLAGS, so they can override them. */
  jvmFlags?: readonly string[];
  /** stdout and stderr are appended here. */
  logFile: string;
  /** Removed by the watchdog if Node is SIGKILLed; the reaper covers the other exits. */
  cleanupDir: string;
}

export interface WaitUntilServingOptions {
  host: string;
  port: number;
  /** Already scaled. */
  timeoutMs: number;
  /** The four-letter word to poll. Default 'ruok'. */
  command?: string;
  /** Whether a reply means ready. Default: reply is 'imok'. */
  isReady?: (reply: string) => boolean;
}

/** The JVM died or never served in time. `bindConflict` tells a caller it may retry. */
export class ZooKeeperStartError extends Error {
  /** Always `'ZooKeeperStartError'`, so logs and `err.name` checks tell this error apart. */
  override readonly name = 'ZooKeeperStartError';
  /** Always `'ZOOKEEPER_START_FAILED'`; `bindConflict` says whether another port may work. */
  readonly code = 'ZOOKEEPER_START_FAILED';
  constructor(
    message: string,
    /**
     * True when the server failed because its port was taken: retrying on another port may work.
     */
    readonly bindConflict: boolean,
  ) {
    super(message);
  }
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class ZooKeeperProcess {
  readonly pid: number;
  readonly logFile: string;
  /** Resolves when the JVM has exited, however that happened. Never rejects. */
  readonly exited: Promise<ProcessExit>;
  #child: ChildProcess;
  #exit: ProcessExit | undefined;
  #paused = false;
  /** Log size when this JVM started: a restart appends, and only this run's output counts. */
  #logStart: number;

  private constructor(spawned: Spawned, logFile: string) {
    const { child, pid, logStart, releaseWatchdog } = spawned;
    this.#child = child;
    this.pid = pid;
    this.logFile = logFile;
    this.#logStart = logStart;
    processReaper.trackProcess(pid);
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        processReaper.untrackProcess(pid);
        this.#exit = { code, signal };
        releaseWatchdog();
        resolve(this.#exit);
      });
    });
    // A forgotten close() must not keep the test process alive; the reaper kills the JVM
    // when Node exits. stop()/kill() ref the child again while they wait for it.
    child.unref();
  }

  static spawn(options: ZooKeeperProcessOptions): ZooKeeperProcess {
    const { java, classpath, mainClass, configFile, jvmFlags = [], logFile, cleanupDir } = options;
    const args = [...BASE_JVM_FLAGS, ...jvmFlags, '-cp', classpath, mainClass, configFile];
    return new ZooKeeperProcess(spawnWithWatchdog(java, args, { logFile, cleanupDir }), logFile);
  }

  /** True until the JVM has exited (a paused JVM is still running). */
  get running(): boolean {
    return this.#exit === undefined;
  }

  get paused(): boolean {
    return this.#paused && this.running;
  }

  /**
   * SIGSTOP: the JVM keeps its sockets open but answers nothing, like a hung server. Resolves
   * once every thread is stopped: kill() returns before the signal takes effect, and a thread
   * caught mid-request could still answer a request sent right after pause().
   */
  async pause(): Promise<void> {
    if (!this.running) throw new Error(`ZooKeeper (pid ${this.pid}) is not running`);
    this.#child.kill('SIGSTOP');
    this.#paused = true;
    const deadline = performance.now() + 2000;
    while (!allThreadsStopped(this.pid) && performance.now() < deadline) await delay(2);
  }

  /** SIGCONT after pause(). */
  resume(): void {
    if (!this.running) throw new Error(`ZooKeeper (pid ${this.pid}) is not running`);
    this.#child.kill('SIGCONT');
    this.#paused = false;
  }

  /** SIGTERM, then SIGKILL if the JVM has not exited after `graceMs`. */
  async stop(graceMs: number): Promise<ProcessExit> {
    if (!this.running) return this.exited;
    this.#child.ref();
    // A stopped process does not act on SIGTERM until continued.
    if (this.#paused) this.resume();
    this.#child.kill('SIGTERM');
    const ac = new AbortController();
    const timer = delay(graceMs, 'timeout', { signal: ac.signal }).catch(() => 'aborted');
    const first = await Promise.race([this.exited, timer]);
    ac.abort();
    if (first === 'timeout') this.#child.kill('SIGKILL');
    return this.exited;
  }

  /** SIGKILL: a crash, no shutdown of any kind. */
  async kill(): Promise<ProcessExit> {
    if (!this.running) return this.exited;
    this.#child.ref();
    this.#child.kill('SIGKILL');
    return this.exited;
  }

  /** The last `lines` lines this JVM wrote to stdout/stderr, for error messages. */
  logTail(lines = 30): string {
    return logTail(this.logFile, this.#logStart, lines);
  }

  /**
   * Polls a four-letter word until `isReady` accepts the reply. Fails fast, with the log
   * tail, when the JVM exits or logs a bind conflict; otherwise when `timeoutMs` passes.
   */
  async waitUntilServing(options: WaitUntilServingOptions): Promise<void> {
    const { host, port, timeoutMs, command = 'ruok', isReady = (r) => r === 'imok' } = options;
    const deadline = Date.now() + timeoutMs;
    for (let attempt = 0; ; attempt++) {
      let lastReply: string;
      // A server still starting can accept a connection and never answer it, so each
      // attempt has its own short deadline, growing in case the machine is just slow.
      const attemptMs = Math.min(250 * 2 ** attempt, 2000, Math.max(1, deadline - Date.now()));
      try {
        lastReply = await fourLetterWord(host, port, command, { timeoutMs: attemptMs });
        if (isReady(lastReply)) return;
      } catch (error) {
        lastReply = error instanceof Error ? error.message : String(error);
      }
      const bindConflict = /Address already in use|BindException/.test(this.logTail(200));
      if (!this.running || bindConflict) {
        if (this.running) await this.kill();
        const how = this.#exit?.signal ?? `code ${String(this.#exit?.code)}`;
        throw new ZooKeeperStartError(
          `ZooKeeper on ${host}:${port} exited during start-up (${how})` +
            `${bindConflict ? ': a port was already in use' : ''}; log tail:\n${this.logTail()}`,
          bindConflict,
        );
      }
      if (Date.now() >= deadline) {
        throw new ZooKeeperStartError(
          `ZooKeeper on ${host}:${port} not ready after ${timeoutMs} ms ` +
            `(last ${command} reply: ${JSON.stringify(lastReply.trim())}); log tail:\n${this.logTail()}`,
          false,
        );
      }
      await delay(25);
    }
  }
}

/** True when every thread of `pid` is in the stopped state ('T'), per /proc. */
function allThreadsStopped(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).every((tid) => {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // The state follows the parenthesised command name, which may itself hold spaces.
      return /^[Tt]$/.test(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
    });
  } catch {
    return true; // gone: nothing left to answer
  }
}
