// Starting a JVM that cannot outlive this Node process, not even when Node is SIGKILLed
// (a test runner's timeout, the OOM killer): the one way out the process reaper cannot see.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, fstatSync, openSync } from 'node:fs';
import type { Socket } from 'node:net';

// The command is started through `sh` so a watchdog can run beside it. The watchdog holds
// the read end of a pipe on fd 3, and `exec` turns the shell into the command (same pid,
// so our signals reach Java directly). When Node dies the pipe reaches EOF and the
// watchdog kills the JVM and removes the temp dir. After the JVM exits we write a newline
// instead, which lets the watchdog go quietly. (fd 3, not stdin: Node destroys a child's
// stdin when it exits, which would look like our death.) The cmdline check keeps a pid
// reused in that short window from being killed.
const WATCHDOG_SCRIPT = `(
  if ! read -r _ <&3; then
    grep -q org.apache.zookeeper /proc/$$/cmdline 2>/dev/null && kill -9 $$
    sleep 0.3
    [ -n "$ZKR_CLEANUP_DIR" ] && rm -rf "$ZKR_CLEANUP_DIR"
  fi
) </dev/null >/dev/null 2>&1 &
exec "$@" 3<&-`;

export interface SpawnWithWatchdogOptions {
  /** stdout and stderr are appended here. */
  logFile: string;
  /** Removed by the watchdog if Node dies without running its exit handlers. */
  cleanupDir: string;
}

export interface Spawned {
  child: ChildProcess;
  pid: number;
  /** Size of the log file before this process wrote to it. */
  logStart: number;
  /** Releases the watchdog; call once the child has exited. */
  releaseWatchdog: () => void;
}

/** Spawns `command args` guarded by the watchdog. Throws if it cannot be spawned at all. */
export function spawnWithWatchdog(
  command: string,
  args: readonly string[],
  options: SpawnWithWatchdogOptions,
): Spawned {
  const fd = openSync(options.logFile, 'a');
  const logStart = fstatSync(fd).size;
  let child: ChildProcess;
  try {
    child = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, 'zookeeper-watchdog', command, ...args], {
      // Not detached: the JVM stays in our process group, so a terminal's Ctrl-C reaches it.
      stdio: ['ignore', fd, fd, 'pipe'],
      env: { ...process.env, ZKR_CLEANUP_DIR: options.cleanupDir },
    });
  } finally {
    closeSync(fd); // the child has its own copy
  }
  if (child.pid === undefined) throw new Error(`could not spawn ${command} via /bin/sh`);
  child.on('error', () => undefined); // reported through the exit and the log instead
  const watchdog = child.stdio[3] as Socket | null | undefined;
  // The watchdog may be gone already; a failed write to it changes nothing.
  watchdog?.on('error', () => undefined);
  // Our end of the pipe must not keep Node alive.
  watchdog?.unref();
  return {
    child,
    pid: child.pid,
    logStart,
    // The newline releases the watchdog; then drop our end entirely (both halves).
    releaseWatchdog: () => watchdog?.end('\n', () => watchdog.destroy()),
  };
}
