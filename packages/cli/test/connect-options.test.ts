// The CLI's connection settings as an operator meets them: a hung host in --connect, a huge
// --timeout, empty environment variables.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { TestingServer, uniquePath } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import { sessionTimeoutFor } from '../src/connect.js';
import { runCli } from './helpers.js';

describe('zkrecipes connection options', () => {
  let server: TestingServer;
  /** Accepts TCP and never answers: a hung host. */
  let hung: net.Server;
  const sockets: net.Socket[] = [];

  before(async () => {
    server = await TestingServer.start();
    hung = net.createServer((socket) => sockets.push(socket));
    hung.listen(0, '127.0.0.1');
    await once(hung, 'listening');
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    hung.close();
    await server.close();
  });

  it('a hung host next to a healthy one: the default 5 s --timeout reaches the healthy one, whichever is tried first', async () => {
    const client = await connectedClient(server);
    const path = uniquePath('cli-hung');
    await client.create(path);
    try {
      const hungHost = `127.0.0.1:${(hung.address() as net.AddressInfo).port}`;
      // The CLI shuffles its hosts: six runs make both orders all but certain.
      const runs = await Promise.all(
        Array.from({ length: 6 }, () =>
          runCli(['inspect', path, '--json', '-c', `${hungHost},${server.connectString}`]),
        ),
      );
      for (const run of runs) assert.equal(run.code, 0, run.stderr);
    } finally {
      await closeAll([client]);
    }
  });

  it('each host gets its turn within --timeout: the session asked for leaves a handshake at most timeout / (hosts + 1)', () => {
    for (const [connect, timeoutMs] of [
      ['a:1', 5_000],
      ['a:1,b:2', 5_000],
      ['a:1,b:2,c:3,d:4,e:5', 5_000],
      ['a:1,b:2', 60_000],
    ] as const) {
      const hosts = connect.split(',').length;
      const sessionMs = sessionTimeoutFor(connect, timeoutMs);
      const handshakeMs = Math.min(sessionMs / hosts, sessionMs / 3);
      assert.ok(
        handshakeMs <= timeoutMs / (hosts + 1) + 1 || sessionMs === 1_000,
        `${connect} ${timeoutMs}: handshake ${handshakeMs}`,
      );
      assert.ok(sessionMs >= 1_000 && sessionMs <= 30_000);
    }
  });

  it('--timeout beyond what a timer can wait is a usage error about --timeout; empty variables count as unset', async () => {
    const huge = await runCli(['inspect', '/', '--timeout', '3000000000']);
    assert.equal(huge.code, 2);
    assert.match(huge.stderr, /--timeout must be a whole number/);
    assert.doesNotMatch(huge.stderr, /--connect/);
    const empty = await runCli(['inspect', '/', '--json', '-c', server.connectString], {
      env: { ZKRECIPES_DIGEST: '' },
    });
    assert.equal(empty.code, 0, empty.stderr);
    const fallback = await runCli(['inspect', '/', '--json', '--timeout', '500'], {
      env: { ZKRECIPES_CONNECT: '' },
    });
    // The default ensemble (127.0.0.1:2181), not an empty connect string.
    assert.doesNotMatch(fallback.stderr, /invalid --connect/);
  });
});
