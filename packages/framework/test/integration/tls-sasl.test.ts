// TLS and SASL together, as a production ensemble closed to plaintext and to anonymous sessions
// runs them: the SASL exchange travels inside the TLS connection, and a wrong password is still
// refused at once and terminally.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TestingServer, TlsMaterial, timing, uniquePath } from '@zkrecipes/testing';
import { createFramework, type FrameworkOptions } from '../../src/create-framework.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { Perms } from '../../src/zk/zookeeper-types.js';
import { isAuthFailed, isNoAuth } from '../../src/errors/predicates.js';
import { silentLogger } from '../../src/logging/silent-logger.js';

describe('TLS with SASL required', () => {
  let material: TlsMaterial;
  let server: TestingServer;
  const clients: FrameworkClient[] = [];
  const client = (sasl: FrameworkOptions['sasl']): FrameworkClient => {
    const made = createFramework({
      connectString: server.secureConnectString,
      tls: { ca: material.caCert },
      sasl,
      logger: silentLogger,
    });
    clients.push(made);
    return made;
  };

  before(async () => {
    material = await TlsMaterial.create();
    server = await TestingServer.start({
      tls: { material },
      sasl: { users: { bob: 'bob-secret', alice: 'alice-secret' }, required: true },
    });
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server.close();
    await material.close();
  });

  it('authenticates over the TLS connection: operations work and a sasl ACL tells users apart', async () => {
    const bob = client({ mechanism: 'DIGEST-MD5', username: 'bob', password: 'bob-secret' });
    const alice = client({ mechanism: 'DIGEST-MD5', username: 'alice', password: 'alice-secret' });
    // One after the other: ZooKeeper 3.8's server keeps the user name of a DIGEST-MD5 login in
    // one handler shared by all connections, so two users logging in at the same instant can
    // have the second checked against the first's password (seen here about 1 run in 10).
    await bob.start({ timeoutMs: timing.ms(10_000) });
    await alice.start({ timeoutMs: timing.ms(10_000) });
    const path = uniquePath('tls-sasl');
    await bob.create(path, {
      data: Buffer.from('for bob only'),
      acl: [{ perms: Perms.ALL, id: { scheme: 'sasl', id: 'bob' } }],
    });
    assert.equal((await bob.getData(path)).data.toString(), 'for bob only');
    const refused = await alice.getData(path).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(isNoAuth(refused), `alice was not refused: ${String(refused)}`);
  });

  it('a wrong password over TLS: start() rejects at once with a terminal AuthFailedError', async () => {
    const wrong = client({ mechanism: 'DIGEST-MD5', username: 'bob', password: 'not-it' });
    const began = performance.now();
    const error = await wrong.start({ timeoutMs: timing.ms(10_000) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const tookMs = performance.now() - began;
    assert.ok(isAuthFailed(error), `expected AuthFailedError, got ${String(error)}`);
    assert.ok(tookMs < timing.ms(5000), `rejected after ${Math.round(tookMs)} ms`);
  });
});
