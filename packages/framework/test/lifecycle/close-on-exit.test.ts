import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { registerCloseOnExit } from '../../src/lifecycle/close-on-exit.js';

const fixture = fileURLToPath(new URL('./fixtures/close-on-exit-child.js', import.meta.url));

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdoutLines: string[];
  stderr: string;
  /** From the first signal sent to the exit. */
  exitAfterSignalMs: number;
}

interface Child {
  /** Resolves with the first stdout line that starts with `prefix`. */
  line(prefix: string): Promise<string>;
  kill(signal: NodeJS.Signals): void;
  exited: Promise<Exit>;
}

function startFixture(...args: string[]): Child {
  const child = spawn(process.execPath, [fixture, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const stdoutLines: string[] = [];
  let stdoutRest = '';
  let stderr = '';
  let signalledAt: number | undefined;
  const waiters: { prefix: string; resolve: (line: string) => void }[] = [];

  const check = (): void => {
    for (const waiter of [...waiters]) {
      const found = stdoutLines.find((l) => l.startsWith(waiter.prefix));
      if (found !== undefined) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(found);
      }
    }
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (stdoutRest + chunk).split('\n');
    stdoutRest = parts.pop() ?? '';
    stdoutLines.push(...parts);
    check();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));

  // A safety net so a broken fixture fails the test instead of hanging it.
  const guard = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const exited = new Promise<Exit>((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({
        code,
        signal,
        stdoutLines,
        stderr,
        exitAfterSignalMs: performance.now() - (signalledAt ?? performance.now()),
      });
    });
  });
  return {
    exited,
    line: (prefix) =>
      Promise.race([
        new Promise<string>((resolve) => {
          waiters.push({ prefix, resolve });
          check();
        }),
        exited.then((exit): never => {
          throw new Error(`child exited before printing "${prefix}": ${JSON.stringify(exit)}`);
        }),
      ]),
    kill: (signal) => {
      signalledAt ??= performance.now();
      child.kill(signal);
    },
  };
}

void describe('registerCloseOnExit', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    void it(`${signal}: closes the client, then the process dies of ${signal} as it would have`, async () => {
      const child = startFixture('plain');
      assert.equal(await child.line('ready'), 'ready SIGTERM=1 SIGINT=1');
      child.kill(signal);
      const exit = await child.exited;
      assert.equal(exit.signal, signal, exit.stderr);
      assert.equal(exit.code, null);
      assert.deepEqual(exit.stdoutLines.slice(1), ['closed']);
    });
  }

  void it('twenty clients share one listener per signal; all are closed, a failing close is logged', async () => {
    const child = startFixture('many');
    assert.equal(await child.line('ready'), 'ready SIGTERM=1 SIGINT=1');
    child.kill('SIGTERM');
    const exit = await child.exited;
    assert.equal(exit.signal, 'SIGTERM');
    assert.deepEqual(
      exit.stdoutLines.slice(1).sort(),
      Array.from({ length: 20 }, (_, i) => `closed ${i}`).sort(),
    );
    assert.match(exit.stderr, /error \[closeOnExit\] close\(\) failed; exiting anyway/);
    assert.match(exit.stderr, /close exploded/);
    assert.doesNotMatch(exit.stderr, /MaxListenersExceeded/);
  });

  void it('an application SIGTERM listener owns the exit: the signal is not raised again', async () => {
    const child = startFixture('app-listener');
    assert.equal(await child.line('ready'), 'ready SIGTERM=2 SIGINT=1');
    child.kill('SIGTERM');
    const exit = await child.exited;
    assert.equal(exit.code, 0, exit.stderr);
    assert.equal(exit.signal, null);
    // Once each: had we raised SIGTERM again, the application's listener would have run twice.
    assert.deepEqual(exit.stdoutLines.slice(1), ['app-sigterm', 'closed', 'app-exit']);
  });

  void it('a close() that hangs: the process still exits, after timeoutMs', async () => {
    const child = startFixture('hang', '300');
    await child.line('ready');
    child.kill('SIGTERM');
    const exit = await child.exited;
    assert.equal(exit.signal, 'SIGTERM');
    assert.deepEqual(exit.stdoutLines.slice(1), ['close-started']);
    assert.ok(exit.exitAfterSignalMs >= 250, `exited after ${exit.exitAfterSignalMs} ms`);
    assert.ok(exit.exitAfterSignalMs < 5000, `exited after ${exit.exitAfterSignalMs} ms`);
    assert.match(exit.stderr, /warn \[closeOnExit\] close\(\) did not finish within 300 ms/);
  });

  void it('a second signal while closing takes its normal effect at once', async () => {
    const child = startFixture('hang', '30000');
    await child.line('ready');
    child.kill('SIGTERM');
    await child.line('close-started');
    child.kill('SIGTERM');
    const exit = await child.exited;
    assert.equal(exit.signal, 'SIGTERM');
    assert.ok(exit.exitAfterSignalMs < 5000, `exited after ${exit.exitAfterSignalMs} ms`);
  });

  void it('after unregistering, a signal does not close it and nothing is left listening', async () => {
    const child = startFixture('unregistered');
    assert.equal(await child.line('ready'), 'ready SIGTERM=0 SIGINT=0');
    child.kill('SIGTERM');
    const exit = await child.exited;
    assert.equal(exit.signal, 'SIGTERM');
    assert.deepEqual(exit.stdoutLines.slice(1), []);
  });

  void it('adds one listener per signal however many register, and removes it with the last', () => {
    const before = {
      SIGTERM: process.listenerCount('SIGTERM'),
      SIGINT: process.listenerCount('SIGINT'),
      SIGHUP: process.listenerCount('SIGHUP'),
    };
    const closable = { close: () => Promise.resolve() };
    const unregisterA = registerCloseOnExit(closable);
    const unregisterB = registerCloseOnExit(closable, { signals: ['SIGTERM', 'SIGHUP'] });
    const unregisterC = registerCloseOnExit(closable);
    assert.equal(process.listenerCount('SIGTERM'), before.SIGTERM + 1);
    assert.equal(process.listenerCount('SIGINT'), before.SIGINT + 1);
    assert.equal(process.listenerCount('SIGHUP'), before.SIGHUP + 1);

    unregisterB();
    unregisterB(); // idempotent
    assert.equal(process.listenerCount('SIGHUP'), before.SIGHUP);
    assert.equal(process.listenerCount('SIGTERM'), before.SIGTERM + 1);
    unregisterA();
    unregisterC();
    assert.equal(process.listenerCount('SIGTERM'), before.SIGTERM);
    assert.equal(process.listenerCount('SIGINT'), before.SIGINT);
  });

  void it('rejects a negative timeoutMs', () => {
    assert.throws(
      () => registerCloseOnExit({ close: () => Promise.resolve() }, { timeoutMs: -1 }),
      RangeError,
    );
  });
});
