import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import {
  compileJavaPeer,
  JavaPeer,
  killSession,
  TestingServer,
  timing,
  uniquePath,
  waitFor,
} from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { isAuthFailed, isInvalidArgument, isNoAuth } from '../../src/errors/predicates.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { RetryNTimes } from '../../src/retry/retry-n-times.js';
import { CREATOR_ALL_ACL } from '../../src/zk/zookeeper-types.js';

// dist/test/integration/*.test.js -> test/fixtures/*.java in the package's sources.
const peerSource = new URL('../../../test/fixtures/CuratorAuthPeer.java', import.meta.url).pathname;

function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => assert.fail('expected a rejection'),
    (error: unknown) => error,
  );
}

describe('FrameworkClient.addAuth', () => {
  let server: TestingServer;
  let owner: FrameworkClient;
  const clients: FrameworkClient[] = [];
  const client = async (connectString = server.connectString): Promise<FrameworkClient> => {
    const made = createFramework({
      connectString,
      sessionTimeoutMs: 10_000,
      connectionTimeoutMs: 1_000,
      retryPolicy: new RetryNTimes({ n: 1, sleepBetweenRetriesMs: 10 }),
      logger: silentLogger,
    });
    clients.push(made);
    await made.start({ timeoutMs: timing.ms(10_000) });
    return made;
  };
  before(async () => {
    server = await TestingServer.start();
    owner = createFramework({
      connectString: server.connectString,
      authInfo: [{ scheme: 'digest', auth: 'app:secret' }],
      logger: silentLogger,
    });
    await owner.start({ timeoutMs: timing.ms(10_000) });
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await owner.close();
    await server.close();
  });

  it('credentials added at run time open a digest-ACL node, and are sent again in a new session', async () => {
    const path = uniquePath('secret');
    await owner.create(path, { data: Buffer.from('s3cret'), acl: CREATOR_ALL_ACL });
    const reader = await client();
    assert.ok(isNoAuth(await rejectionOf(reader.getData(path))));
    await reader.addAuth('digest', 'app:secret');
    assert.equal((await reader.getData(path)).data.toString(), 's3cret');
    // Sending the same credentials again is harmless.
    await reader.addAuth('digest', Buffer.from('app:secret'));

    const before = reader.sessionId;
    await killSession(reader, server.connectString);
    await waitFor(() => reader.isConnected && reader.sessionId !== before, {
      message: 'a new session',
    });
    assert.equal((await reader.getData(path)).data.toString(), 's3cret');
  });

  it('bad input is an InvalidArgumentError and nothing reaches the server', async () => {
    const c = await client();
    for (const [scheme, auth] of [
      ['', 'a:b'],
      ['digest', 'no-colon'],
      ['digest', 42],
    ] as const) {
      const error = await rejectionOf(c.addAuth(scheme, auth as unknown as string));
      assert.ok(isInvalidArgument(error), String(error));
    }
    assert.ok(c.isConnected);
    assert.notEqual(await c.exists('/'), null);
  });

  it('a refused scheme rejects with AuthFailedError, terminal as for authInfo', async () => {
    const c = await client();
    const error = await rejectionOf(c.addAuth('no-such-scheme', 'x'));
    assert.ok(isAuthFailed(error), String(error));
    assert.ok(isAuthFailed(await rejectionOf(c.exists('/'))));
    await waitFor(() => c.connectionState === 'LOST', { message: 'LOST after AUTH_FAILED' });
  });

  it('with the server stopped it waits for a connection and settles: by its signal, by the retry policy, or once the server is back', async () => {
    const own = await TestingServer.start();
    try {
      const path = uniquePath('after-restart');
      const c = await client(own.connectString);
      await c.create(path, { data: Buffer.from('x') });
      await own.stop();
      await waitFor(() => !c.isConnected, { message: 'disconnected' });

      let startedAt = performance.now();
      const aborted = await rejectionOf(
        c.addAuth('digest', 'u:p', { signal: AbortSignal.timeout(300) }),
      );
      assert.equal((aborted as Error).name, 'TimeoutError');
      assert.ok(performance.now() - startedAt < timing.ms(2_000));

      // connectionTimeoutMs 1 s, one retry: the call gives up with a connection loss.
      startedAt = performance.now();
      const lost = await rejectionOf(c.addAuth('digest', 'u:p'));
      assert.equal((lost as { code?: string }).code, 'CONNECTION_LOSS', String(lost));
      assert.ok(performance.now() - startedAt < timing.ms(6_000));

      // Waiting longer than the restart takes, it resolves once the server is back.
      const patient = createFramework({
        connectString: own.connectString,
        connectionTimeoutMs: timing.ms(30_000),
        logger: silentLogger,
      });
      clients.push(patient);
      await patient.start();
      const waiting = patient.addAuth('digest', 'u:p', {
        signal: AbortSignal.timeout(timing.ms(30_000)),
      });
      await own.restart();
      await waiting;
      await patient.setAcl(path, CREATOR_ALL_ACL);
      assert.equal((await patient.getData(path)).data.toString(), 'x');
    } finally {
      await own.close();
    }
  });
});

describe('addAuth with Java Curator 5.4', () => {
  let server: TestingServer;
  let peer: JavaPeer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    client = createFramework({ connectString: server.connectString, logger: silentLogger });
    [peer] = await Promise.all([
      JavaPeer.start({ source: peerSource, args: [server.connectString] }),
      client.start({ timeoutMs: timing.ms(10_000) }),
    ]);
  });
  after(async () => {
    await peer.close();
    await client.close();
    await server.close();
    rmSync(await compileJavaPeer(peerSource), { recursive: true, force: true });
  });

  it("a node Curator made with its digest credentials is readable after our addAuth of them, and Curator's addAuthInfo reads ours", async () => {
    const javaMade = uniquePath('java-secret');
    assert.equal(await peer.request(`secret java:pw ${javaMade} from-java`), 'OK');
    assert.ok(isNoAuth(await rejectionOf(client.getData(javaMade))));
    await client.addAuth('digest', 'java:pw');
    assert.equal((await client.getData(javaMade)).data.toString(), 'from-java');

    const nodeMade = uniquePath('node-secret');
    await client.addAuth('digest', 'node:pw');
    await client.create(nodeMade, { data: Buffer.from('from-node'), acl: CREATOR_ALL_ACL });
    assert.equal(await peer.request(`read-as node:pw ${nodeMade}`), 'OK from-node');
    await assert.rejects(peer.request(`read ${nodeMade}`), /NoAuth/);
  });
});
