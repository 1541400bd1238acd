// A throwaway project outside this repository, where commands run as a user types them: npm
// and node from PATH, the project as the working directory, none of this repository's npm
// context.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { timing } from '@zkrecipes/testing';

/** How a command ended, and what it printed. */
export interface CommandResult {
  readonly code: number | null;
  /** stdout and stderr interleaved, for failure messages. */
  readonly output: string;
  /** stdout alone, for commands whose output is parsed. */
  readonly stdout: string;
  /** stderr alone, for commands that must not complain. */
  readonly stderr: string;
}

// npm hands its script context (npm_package_json, npm_config_local_prefix, ...) to the scripts
// it runs, `npm test` included, and an npm started from there would act on this repository.
// Only the variables that locate the user's cache and configuration are passed on.
const KEPT_NPM_VARIABLES = new Set([
  'npm_config_cache',
  'npm_config_userconfig',
  'npm_config_globalconfig',
]);

function userEnv(extra: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.toLowerCase().startsWith('npm_') || KEPT_NPM_VARIABLES.has(name)) env[name] = value;
  }
  // Set by node's test runner in the processes it starts: a `node --test` that sees it runs
  // nothing and exits 0, which would pass every test example unrun.
  delete env.NODE_TEST_CONTEXT;
  return { ...env, ...extra };
}

/** A new directory under the system's temp dir; `remove()` deletes it. */
export class TempProject {
  readonly dir: string;
  readonly #env: Record<string, string> = {};

  private constructor(dir: string) {
    this.dir = dir;
  }

  /** An empty project directory (nothing in it until a command makes it an npm project). */
  static create(name: string): TempProject {
    return new TempProject(mkdtempSync(join(tmpdir(), `zkrecipes-${name}-`)));
  }

  /** A new directory inside `parent` (a project whose node_modules it shares). */
  static createIn(parent: string, name: string): TempProject {
    return new TempProject(mkdtempSync(join(parent, `${name}-`)));
  }

  /** A project in an existing directory, or one the caller is about to make. */
  static open(dir: string): TempProject {
    return new TempProject(dir);
  }

  /** Sets an environment variable for every later command. */
  setEnv(name: string, value: string): void {
    this.#env[name] = value;
  }

  /** Writes a file of the project. */
  write(file: string, text: string): void {
    writeFileSync(join(this.dir, file), text);
  }

  /** Reads a file of the project. */
  read(file: string): string {
    return readFileSync(join(this.dir, file), 'utf8');
  }

  /** Starts `command args` in the project; the caller waits for or ends it. */
  spawn(command: string, args: readonly string[]): ChildProcess {
    return spawn(command, args, {
      cwd: this.dir,
      env: userEnv(this.#env),
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so that ending a shell also ends what it started.
      detached: true,
    });
  }

  /** Runs `command args` to completion (killed after `timeoutMs`, scaled). */
  run(command: string, args: readonly string[], timeoutMs = 60_000): Promise<CommandResult> {
    return new Promise((resolve, reject) => {
      const child = this.spawn(command, args);
      let output = '';
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        stdout += chunk.toString();
      });
      child.stderr!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        stderr += chunk.toString();
      });
      const timer = setTimeout(() => killGroup(child), timing.ms(timeoutMs));
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, output, stdout, stderr });
      });
    });
  }

  /** Runs `command args`; fails the test, with everything it printed, unless it exits 0. */
  async must(command: string, args: readonly string[], timeoutMs?: number): Promise<CommandResult> {
    const result = await this.run(command, args, timeoutMs);
    const { code, output } = result;
    assert.equal(code, 0, `\`${[command, ...args].join(' ')}\` exited ${code}:\n${output}`);
    return result;
  }

  /** Deletes the directory. */
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Ends a process started by {@link TempProject.spawn} and everything it started. */
export function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
