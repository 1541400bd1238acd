import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { waitFor } from '../src/index.js';

// A child Node process starts a TestingServer, reports the JVM's pid and temp dir, and then
// ends the way a test run can end badly. Whatever the way, no JVM and no dir may remain.
const CHILD = `
const { TestingServer } = await import(process.env.ZKR_INDEX);
const server = await TestingServer.start();
console.log(JSON.stringify({ pid: server.pid, dir: server.tempDir }));
const how = process.env.ZKR_HOW;
if (how === 'throw') setTimeout(() => { throw new Error('boom'); }, 0);
else if (how !== 'forget') {
  setTimeout(() => {}, 30_000);
  process.kill(process.pid, how);
}
`;

interface ChildEnd {
  pid: number;
  dir: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

function runChild(how: string): Promise<ChildEnd> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD], {
      env: {
        ...process.env,
        ZKR_INDEX: new URL('../src/index.js', import.meta.url).href,
        ZKR_HOW: how,
      },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      try {
        const { pid, dir } = JSON.parse(out) as { pid: number; dir: string };
        resolve({ pid, dir, code, signal });
      } catch {
        reject(new Error(`child (${how}) printed no server info: ${JSON.stringify(out)}`));
      }
    });
  });
}

/** Dead, or a zombie waiting for init to reap it (a zombie runs nothing, holds no port). */
function jvmGone(pid: number): boolean {
  try {
    return /^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return true;
  }
}

async function assertNothingLeft(end: ChildEnd): Promise<void> {
  await waitFor(() => jvmGone(end.pid) && !existsSync(end.dir), {
    timeoutMs: 5000,
    message: `JVM ${end.pid} to die and ${end.dir} to go`,
  });
}

describe('processReaper and the JVM watchdog', () => {
  it('SIGTERM: the JVM is killed, the dir removed, and the process still dies of SIGTERM', async () => {
    const end = await runChild('SIGTERM');
    assert.equal(end.signal, 'SIGTERM');
    await assertNothingLeft(end);
  });

  it('SIGINT: the same, and the process dies of SIGINT', async () => {
    const end = await runChild('SIGINT');
    assert.equal(end.signal, 'SIGINT');
    await assertNothingLeft(end);
  });

  it('an uncaught exception: the exit path reaps the JVM', async () => {
    const end = await runChild('throw');
    assert.equal(end.code, 1);
    await assertNothingLeft(end);
  });

  it('a forgotten close(): the server does not keep Node alive and is reaped on exit', async () => {
    const end = await runChild('forget');
    assert.equal(end.code, 0);
    await assertNothingLeft(end);
  });

  it('SIGKILL of Node: the watchdog kills the JVM and removes the dir', async () => {
    const end = await runChild('SIGKILL');
    assert.equal(end.signal, 'SIGKILL');
    await assertNothingLeft(end);
  });
});
