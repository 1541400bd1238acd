// A test run that crashes, is interrupted or times out must not leave JVMs holding ports
// and temp dirs behind. Every JVM and temp dir the harness creates is registered here; on
// the way out they are removed synchronously, since nothing asynchronous runs in 'exit'.
//
// How each way out reaches this code:
//  - normal end, process.exit(), uncaught exception, unhandled rejection: the 'exit' event.
//  - SIGINT / SIGTERM / SIGHUP: Node would die without an 'exit' event, so we listen, reap,
//    and re-raise the signal once our listener is gone, so the process still dies of that
//    signal (same exit status the caller expects). If someone else also listens, they own
//    the decision and we do not re-raise.
//  - SIGKILL of Node: nothing in-process can run; the watchdog in zookeeper-process.ts
//    (which notices our end of a pipe closing) kills the JVM and removes its dir.
import { rmSync } from 'node:fs';

const REAPED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type ReapedSignal = (typeof REAPED_SIGNALS)[number];

const pids = new Set<number>();
const dirs = new Set<string>();
let exitInstalled = false;
let signalsInstalled = false;

/** Synchronously SIGKILLs every tracked JVM and deletes every tracked dir. Idempotent. */
function reapAll(): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone (ESRCH): nothing to do.
    }
  }
  pids.clear();
  for (const dir of dirs) {
    try {
      // Retries cover a JVM that was still writing for a moment after SIGKILL.
      rmSync(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 20 });
    } catch {
      // Best effort on the way out: there is nobody left to report to.
    }
  }
  dirs.clear();
}

function onSignal(signal: ReapedSignal): void {
  reapAll();
  for (const s of REAPED_SIGNALS) process.removeListener(s, signalHandlers[s]);
  signalsInstalled = false;
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

const signalHandlers: Record<ReapedSignal, () => void> = {
  SIGINT: () => onSignal('SIGINT'),
  SIGTERM: () => onSignal('SIGTERM'),
  SIGHUP: () => onSignal('SIGHUP'),
};

function install(): void {
  if (!exitInstalled) {
    exitInstalled = true;
    process.on('exit', reapAll);
  }
  // Re-installed if a signal came, someone else's listener kept the process alive, and
  // new JVMs are started afterwards.
  if (!signalsInstalled) {
    signalsInstalled = true;
    for (const signal of REAPED_SIGNALS) process.on(signal, signalHandlers[signal]);
  }
}

/** Registry of what must not outlive this Node process. Internal to the harness. */
export const processReaper = {
  /** Kill `pid` with SIGKILL if this process exits while it is still tracked. */
  trackProcess(pid: number): void {
    install();
    pids.add(pid);
  },
  /** The process ended on its own: forget it, so a reused pid is never killed. */
  untrackProcess(pid: number): void {
    pids.delete(pid);
  },
  /** Delete `dir` recursively if this process exits while it is still tracked. */
  trackDir(dir: string): void {
    install();
    dirs.add(dir);
  },
  /** The dir was removed (or handed over): forget it. */
  untrackDir(dir: string): void {
    dirs.delete(dir);
  },
  /** Reap everything now; what the exit and signal paths call. Exposed for tests. */
  reapAll,
};
