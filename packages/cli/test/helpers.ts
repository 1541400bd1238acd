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

/** A long-running CLI (`watch`) whose stdout lines are collected as they come. */
export function startCli(args: readonly string[]): { child: ChildProcess; lines: string[] } {
  const child = spawn(process.execPath, [CLI_MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
  });
  return { child, lines };
}

/** The session id of a connected client as the CLI prints it. */
export function sessionOf(client: FrameworkClient): string {
  return `0x${BigInt.asUintN(64, client.sessionId!).toString(16)}`;
}
