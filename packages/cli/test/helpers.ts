// Shared test helpers: the built CLI run as a subprocess (as an operator runs it), and what it
// prints about the clients of the live recipes it inspects.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import type { FrameworkClient } from '@zkrecipes/framework';
import { timing, type TestingServer } from '@zkrecipes/testing';

/** dist/test/helpers.js -> bin/zkrecipes.js: the binary exactly as npm links it. */
export const CLI_MAIN = new URL('../../bin/zkrecipes.js', import.meta.url).pathname;

/** What a finished CLI run left. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly elapsedMs: number;
}

/** Runs `node bin/zkrecipes.js ...args` to completion (killed after `timeoutMs`, scaled). */
export function runCli(
  args: readonly string[],
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CliRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_MAIN, ...args], {
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timing.ms(options.timeoutMs ?? 20_000));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, elapsedMs: performance.now() - started });
    });
  });
}

/** Runs `inspect <path> --json` against `server` and parses the output (exit 0 expected). */
export async function inspectJson(
  server: TestingServer,
  path: string,
  extra: readonly string[] = [],
): Promise<Record<string, unknown>> {
  const run = await runCli([
    'inspect',
    path,
    '--json',
    '--connect',
    server.connectString,
    ...extra,
  ]);
  assert.equal(run.code, 0, `exit ${run.code}: ${run.stderr}${run.stdout}`);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

/** The repository's root (this file is packages/cli/dist/test/helpers.js). */
const REPO_ROOT = new URL('../../../../', import.meta.url).pathname;

/** Options of {@link startCli}. */
export interface StartCliOptions {
  /**
   * Run it under npx from the repository's root (where setup links it), in a process group of
   * its own as a terminal runs a command (`-child.pid` signals the group), as
   * `npx --no-install -c 'exec zkrecipes ...'`: npx runs a command through `sh`, and `exec`
   * leaves zkrecipes as npx's child in its place (a plain `npx zkrecipes` leaves the shell in
   * between, which a signal kills at once, so npx reports the signal whatever zkrecipes does).
   * Default: `node bin/zkrecipes.js`, in the test's group.
   */
  readonly npx?: boolean;
}

function shellQuote(arg: string): string {
  return `'${arg.replaceAll("'", "'\\''")}'`;
}

/** A long-running CLI (`watch`) whose stdout lines (and stderr) are collected as they come. */
export function startCli(
  args: readonly string[],
  options: StartCliOptions = {},
): { child: ChildProcess; lines: string[]; stderr: () => string } {
  const child = options.npx
    ? spawn('npx', ['--no-install', '-c', `exec zkrecipes ${args.map(shellQuote).join(' ')}`], {
        cwd: REPO_ROOT,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawn(process.execPath, [CLI_MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { child, lines, stderr: () => stderr };
}

/** The session id of a connected client as the CLI prints it. */
export function sessionOf(client: FrameworkClient): string {
  return `0x${BigInt.asUintN(64, client.sessionId!).toString(16)}`;
}
