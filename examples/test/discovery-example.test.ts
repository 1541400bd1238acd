import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { TestingServer, timing, uniquePath } from '@zkrecipes/testing';

// dist/test/*.test.js -> dist/src/discovery/*.js: the built examples.
const service = new URL('../src/discovery/http-service.js', import.meta.url).pathname;
const client = new URL('../src/discovery/http-client.js', import.meta.url).pathname;

function start(script: string, args: readonly string[]): ChildProcess {
  return spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs a program to its end: exit code and everything it printed. */
async function run(
  script: string,
  args: readonly string[],
): Promise<{ code: number | null; output: string }> {
  const child = start(script, args);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timing.ms(60_000));
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, output };
}

/** The first stdout line matching `pattern` (rejects if the process exits first). */
async function lineOf(child: ChildProcess, pattern: RegExp): Promise<string> {
  const lines = createInterface({ input: child.stdout! });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit').then(() => {
    throw new Error(`exited before ${String(pattern)}:\n${stderr}`);
  });
  const found = (async () => {
    for await (const line of lines) if (pattern.test(line)) return line;
    throw new Error(`no line ${String(pattern)}`);
  })();
  return Promise.race([found, exited]);
}

describe('the service discovery example (examples/src/discovery)', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(async () => {
    await server.close();
  });

  it('an HTTP service registers itself, a client finds and calls it, and SIGTERM unregisters it', async () => {
    const base = uniquePath('example-services');
    const common = ['--connect', server.connectString, '--base', base, '--name', 'greeter'];
    const services = [
      start(service, [...common, '--id', 'g-1']),
      start(service, [...common, '--id', 'g-2']),
    ];
    try {
      const uris = await Promise.all(
        services.map(async (child) => {
          const line = await lineOf(child, /^registered /);
          const match = /^registered greeter\/(g-\d) at (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
          assert.ok(match, line);
          return match[2];
        }),
      );
      const calls = await run(client, [...common, '--calls', '4']);
      assert.equal(calls.code, 0, calls.output);
      const answered = calls.output.trim().split('\n');
      assert.equal(answered.length, 4, calls.output);
      for (const line of answered) {
        const match = /^(\S+) -> 200 (.*)$/.exec(line);
        assert.ok(match, line);
        assert.ok(uris.includes(match[1]), line);
        assert.deepEqual(Object.keys(JSON.parse(match[2]!) as object), ['service', 'id', 'path']);
      }
      // Round robin: each of the two instances twice.
      assert.equal(new Set(answered.map((l) => l.split(' ')[0])).size, 2);

      for (const child of services) child.kill('SIGTERM');
      const codes = await Promise.all(
        services.map(async (child) => ((await once(child, 'exit')) as [number | null])[0]),
      );
      assert.deepEqual(codes, [0, 0]);
      const none = await run(client, [...common, '--wait-ms', '300']);
      assert.notEqual(none.code, 0, 'no instance left to find');
      assert.match(none.output, /Timeout/);
    } finally {
      for (const child of services) if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
