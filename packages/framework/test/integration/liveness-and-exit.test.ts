import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { ConnectionState } from '../../src/state/connection-state.js';

const ownerScript = fileURLToPath(new URL('./fixtures/ephemeral-owner-child.js', import.meta.url));

describe('event-loop stalls and closeOnExit against a real server', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(() => server.close());

  it('an event-loop stall longer than a third of the session timeout: SUSPENDED until a reply proves the connection, then RECONNECTED on the same session', async () => {
    const client = createFramework({
      connectString: server.connectString,
      sessionTimeoutMs: 3000,
      logger: silentLogger,
    });
    await client.start();
    try {
      assert.equal(await client.blockUntilConnected({ timeoutMs: 10_000 }), true);
      const sessionBefore = client.sessionId;
      const seen: ConnectionState[] = [];
      client.on('stateChanged', (state) => seen.push(state));
      // The stall under test: 1.4 s of synchronous work (the threshold is 1 s).
      const until = performance.now() + 1400;
      while (performance.now() < until) {
        // busy
      }
      await waitFor(() => seen.includes(ConnectionState.RECONNECTED), {
        timeoutMs: 10_000,
        message: 'RECONNECTED after the stall',
      });
      assert.deepEqual(seen, [ConnectionState.SUSPENDED, ConnectionState.RECONNECTED]);
      assert.equal(client.sessionId, sessionBefore);
    } finally {
      await client.close();
    }
  });

  it('closeOnExit: a service killed with SIGTERM closes its session first, so its ephemeral vanishes at once and the process still dies of SIGTERM', async () => {
    const path = uniquePath('service');
    const child = spawn(process.execPath, [ownerScript, server.connectString, path], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = once(child, 'exit');
    const lines = createInterface({ input: child.stdout });
    const [ready] = (await once(lines, 'line')) as [string];
    assert.equal(ready, 'READY');
    const observer = createFramework({ connectString: server.connectString, logger: silentLogger });
    await observer.start();
    try {
      assert.notEqual(await observer.exists(path), null);
      const signalledAt = performance.now();
      child.kill('SIGTERM');
      const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
      assert.equal(signal, 'SIGTERM', `exit code ${code}`);
      // The session timeout is 30 s: a node gone within a few seconds was removed by close().
      assert.equal(await observer.exists(path), null);
      assert.ok(performance.now() - signalledAt < 5000);
    } finally {
      await observer.close();
    }
  });
});
