import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TestingServer, TlsMaterial, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { aclProviderFrom } from '../../src/client/acl-provider.js';
import { x509Acl } from '../../src/client/x509-acl.js';
import type { TlsOptions } from '../../src/tls/tls-options.js';
import { isInvalidArgument, isNoAuth } from '../../src/errors/predicates.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { ConnectionState } from '../../src/state/connection-state.js';
import { CREATOR_ALL_ACL, Perms } from '../../src/zk/zookeeper-types.js';

describe('mutual TLS: sessions authenticated as x509:<subject DN>', () => {
  let material: TlsMaterial;
  let server: TestingServer;
  const clients: FrameworkClient[] = [];

  function tlsFor(name: string | undefined): TlsOptions {
    if (name === undefined) return { ca: material.caCert };
    const { cert, key } = material.client(name);
    return { ca: material.caCert, cert, key };
  }

  async function connect(
    tls: TlsOptions | (() => TlsOptions),
    extra: { aclProvider?: ReturnType<typeof aclProviderFrom> } = {},
  ): Promise<FrameworkClient> {
    const client = createFramework({
      connectString: server.secureConnectString,
      sessionTimeoutMs: 10_000,
      tls,
      logger: silentLogger,
      ...extra,
    });
    clients.push(client);
    await client.start({ timeoutMs: timing.ms(10_000) });
    return client;
  }

  before(async () => {
    material = await TlsMaterial.create({ clients: ['alice', 'bob'] });
    server = await TestingServer.start({ tls: { material, clientAuth: 'want' } });
  });
  after(async () => {
    for (const client of clients) await client.close();
    await server.close();
    await material.close();
  });

  it("a node with an x509 ACL for alice's certificate is read by alice and refused (NoAuthError) to bob and to a client without a certificate", async () => {
    const alice = await connect(tlsFor('alice'));
    const bob = await connect(tlsFor('bob'));
    const anonymous = await connect(tlsFor(undefined));
    const path = uniquePath('x509');
    await alice.create(path, {
      data: Buffer.from('for alice'),
      acl: [x509Acl(material.client('alice').subjectDn)],
    });
    assert.equal((await alice.getData(path)).data.toString(), 'for alice');
    for (const other of [bob, anonymous]) {
      await assert.rejects(other.getData(path), (error: unknown) => isNoAuth(error));
    }
    const { acl } = await alice.getAcl(path);
    assert.deepEqual(acl, [
      { perms: Perms.ALL, id: { scheme: 'x509', id: material.client('alice').subjectDn } },
    ]);
  });

  it("aclProvider with CREATOR_ALL_ACL: the server expands it to the creator's x509 identity", async () => {
    const bob = await connect(tlsFor('bob'), { aclProvider: aclProviderFrom(CREATOR_ALL_ACL) });
    const alice = await connect(tlsFor('alice'));
    const path = uniquePath('x509-creator');
    await bob.create(path, { data: Buffer.from('bob only') });
    const { acl } = await bob.getAcl(path);
    assert.deepEqual(acl, [
      { perms: Perms.ALL, id: { scheme: 'x509', id: material.client('bob').subjectDn } },
    ]);
    await assert.rejects(alice.getData(path), (error: unknown) => isNoAuth(error));
  });

  it('a rotated certificate is used from the next connection on: same session, new identity', async () => {
    const admin = await connect(tlsFor('alice'));
    const forAlice = uniquePath('rotate-alice');
    const forBob = uniquePath('rotate-bob');
    await admin.create(forAlice, { acl: [x509Acl(material.client('alice').subjectDn)] });
    await admin.create(forBob, {
      acl: [x509Acl(material.client('bob').subjectDn), x509Acl(material.client('alice').subjectDn)],
    });
    let current = 'alice';
    let calls = 0;
    const rotating = await connect(() => {
      calls += 1;
      return tlsFor(current);
    });
    const sessionId = rotating.sessionCredentials()?.sessionId;
    await rotating.getData(forAlice);
    current = 'bob';
    await server.restart();
    await waitFor(() => rotating.connectionState === ConnectionState.RECONNECTED, {
      timeoutMs: timing.ms(15_000),
    });
    assert.equal(rotating.sessionCredentials()?.sessionId, sessionId, 'the session survived');
    assert.ok(calls >= 2, `the tls function is called per connection (called ${calls} times)`);
    await rotating.getData(forBob);
    await assert.rejects(rotating.getData(forAlice), (error: unknown) => isNoAuth(error));
  });

  it('x509Acl refuses a DN with spaces after the commas and an empty DN', () => {
    assert.throws(() => x509Acl('CN=alice, O=example'), isInvalidArgument);
    assert.throws(() => x509Acl(''), isInvalidArgument);
  });
});

describe('clientAuth need: a client without a certificate is refused in the TLS handshake', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start({ tls: { clientAuth: 'need' } });
  });
  after(async () => {
    await server.close();
  });

  it('start() rejects at once with the TLS cause; with a certificate it connects', async () => {
    const material = server.tls!;
    const client = createFramework({
      connectString: server.secureConnectString,
      connectionTimeoutMs: 3000,
      tls: { ca: material.caCert },
      logger: silentLogger,
    });
    const started = performance.now();
    const error = await client.start({ timeoutMs: 3000 }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    const tookMs = performance.now() - started;
    await client.close();
    assert.ok(error, 'start() must reject');
    assert.match(error.message, /no TLS connection|TLS handshake/);
    assert.ok(tookMs < 3000 + timing.ms(1000), `rejected after ${Math.round(tookMs)} ms`);
    const alice = material.client('alice');
    const withCert = createFramework({
      connectString: server.secureConnectString,
      tls: { ca: material.caCert, cert: alice.cert, key: alice.key },
      logger: silentLogger,
    });
    await withCert.start({ timeoutMs: timing.ms(10_000) });
    await withCert.close();
  });
});
