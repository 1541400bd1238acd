// What every stress round needs: quiet clients on one server, and an optional CPU hog that
// makes the event loop late, the condition under which the past ordering bugs showed.
import { spawn, type ChildProcess } from 'node:child_process';
import {
  createFramework,
  ExponentialBackoffRetry,
  silentLogger,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { timing } from '@zkrecipes/testing';

export async function stressClients(
  connectString: string,
  count: number,
): Promise<FrameworkClient[]> {
  const clients = Array.from({ length: count }, () =>
    createFramework({
      connectString,
      logger: silentLogger,
      sessionTimeoutMs: 20_000,
      retryPolicy: new ExponentialBackoffRetry({ baseSleepMs: 50, maxRetries: 5 }),
    }),
  );
  for (const client of clients) {
    await client.start();
    if (!(await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) }))) {
      await Promise.all(clients.map((c) => c.close()));
      throw new Error(`could not connect to ${connectString}`);
    }
  }
  return clients;
}

/** A busy child process per core: the test process competes for the CPU as under load. */
export function cpuHog(processes: number): { stop(): void } {
  const children: ChildProcess[] = [];
  for (let i = 0; i < processes; i++) {
    children.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  }
  return {
    stop: () => {
      for (const child of children) child.kill('SIGKILL');
    },
  };
}

/** Resolves true once `done()` holds, false if it still does not after `timeoutMs`. */
export async function settlesWithin(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
