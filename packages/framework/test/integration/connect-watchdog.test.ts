import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { TestingServer, timing } from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import { silentLogger } from '../../src/logging/silent-logger.js';

/** Accepts TCP connections and never says a word: the handshake never completes. */
async function startSilentListener(): Promise<{
  server: Server;
  port: number;
  accepted: () => number;
}> {
  let accepted = 0;
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    accepted += 1;
    sockets.push(socket);
    socket.on('error', () => undefined);
  });
  server.on('close', () => sockets.forEach((s) => s.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  return { server, port: address.port, accepted: () => accepted };
}

describe('connect watchdog', () => {
  let zk: TestingServer;
  let silent: Awaited<ReturnType<typeof startSilentListener>>;
  before(async () => {
    zk = await TestingServer.start();
    silent = await startSilentListener();
  });
  after(async () => {
    silent.server.close();
    await zk.close();
  });

  it('a silent TCP listener in the connect string: the client moves on and connects to the live server within the watchdog', async () => {
    const sessionTimeoutMs = 4000;
    // Two hosts: the watchdog gives each attempt sessionTimeout / 2.
    const watchdogMs = sessionTimeoutMs / 2;
    // nzc shuffles the hosts, so keep starting clients until one tried the silent host first.
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const acceptedBefore = silent.accepted();
      const client = createFramework({
        connectString: `127.0.0.1:${silent.port},${zk.connectString}`,
        sessionTimeoutMs,
        logger: silentLogger,
        detectEventLoopStalls: false,
      });
      const startedAt = performance.now();
      try {
        await client.start();
        const connected = await client.blockUntilConnected({
          timeoutMs: timing.ms(3 * watchdogMs),
        });
        const elapsedMs = performance.now() - startedAt;
        assert.equal(connected, true, 'connected to the live server');
        assert.notEqual(await client.exists('/'), null);
        if (silent.accepted() > acceptedBefore) {
          assert.ok(
            elapsedMs <= watchdogMs + timing.ms(1500),
            `connected after ${Math.round(elapsedMs)} ms; the watchdog allows ${watchdogMs} per host`,
          );
          return;
        }
      } finally {
        await client.close();
      }
    }
    assert.fail('no client tried the silent host first in 12 attempts (nzc shuffles hosts)');
  });
});
