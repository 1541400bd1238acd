// Java Curator and zkrecipes side by side over mutual TLS: the Java peer
// (fixtures/CuratorTlsPeer.java) connects through ZooKeeper's Netty TLS socket with alice's
// certificate, our clients through Node's TLS socket with alice's or bob's. The server serves
// only clients with a certificate its CA signed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createFramework, isNoAuth, x509Acl, type FrameworkClient } from '@zkrecipes/framework';
import { InterProcessMutex } from '@zkrecipes/locks';
import { JavaPeer, TestingServer, TlsMaterial, timing, uniquePath } from '@zkrecipes/testing';

// dist/test/secure/*.test.js -> test/secure/fixtures/*.java in the sources.
const peerSource = new URL('../../../secure/fixtures/CuratorTlsPeer.java', import.meta.url)
  .pathname;

const silent = { error() {}, warn() {}, info() {}, debug() {} };

describe('interop with Curator 5.4 (Java) over mutual TLS', () => {
  let material: TlsMaterial;
  let server: TestingServer;
  let peer: JavaPeer;
  let alice: FrameworkClient;
  let bob: FrameworkClient;
  let counter = 0;
  const javaName = (): string => `j${++counter}`;

  async function connect(name: string): Promise<FrameworkClient> {
    const { cert, key } = material.client(name);
    const client = createFramework({
      connectString: server.secureConnectString,
      sessionTimeoutMs: 10_000,
      tls: { ca: material.caCert, cert, key },
      logger: silent,
    });
    await client.start({ timeoutMs: timing.ms(10_000) });
    return client;
  }

  before(async () => {
    material = await TlsMaterial.create({ clients: ['alice', 'bob'] });
    server = await TestingServer.start({ tls: { material, clientAuth: 'need' } });
    [peer, alice, bob] = await Promise.all([
      JavaPeer.start({
        source: peerSource,
        args: [server.secureConnectString],
        tls: { caCertFile: material.caCertFile, client: material.client('alice') },
        replyTimeoutMs: 20_000,
      }),
      connect('alice'),
      connect('bob'),
    ]);
  });
  after(async () => {
    await peer?.close();
    await alice?.close();
    await bob?.close();
    await server?.close();
    await material?.close();
  });

  it('InterProcessMutex: a Java holder makes our acquire(timeout) false, and its release lets us in', async () => {
    const path = uniquePath('tls-interop-java-holds');
    const java = javaName();
    assert.equal(await peer.request(`mutex ${java} ${path}`), 'OK');
    assert.equal(await peer.request(`acquire ${java} -1`), 'OK true');
    const mutex = new InterProcessMutex(bob, path);
    assert.equal(await mutex.acquire(timing.ms(300)), false);
    assert.equal((await bob.getChildren(path)).length, 1, 'our timed-out waiter left no node');
    assert.equal(await peer.request(`release ${java}`), 'OK');
    assert.equal(await mutex.acquire(timing.ms(5000)), true);
    await mutex.release();
  });

  it("InterProcessMutex: our holder makes Java's acquire(timeout) false, and our release lets Java in", async () => {
    const path = uniquePath('tls-interop-node-holds');
    const java = javaName();
    const mutex = new InterProcessMutex(alice, path);
    assert.equal(await mutex.acquire(timing.ms(5000)), true);
    assert.equal(await peer.request(`mutex ${java} ${path}`), 'OK');
    assert.equal(await peer.request(`acquire ${java} ${timing.ms(300)}`), 'OK false');
    await mutex.release();
    assert.equal(await peer.request(`acquire ${java} ${timing.ms(5000)}`), 'OK true');
    assert.equal(await mutex.acquire(0), false, 'Java holds it now');
    assert.equal(await peer.request(`release ${java}`), 'OK');
  });

  it("a node Java makes with an x509 ACL for its certificate is refused (NoAuthError) to bob's certificate and read with alice's", async () => {
    const path = uniquePath('tls-interop-acl-java');
    const dn = material.client('alice').subjectDn;
    assert.equal(await peer.request(`create-x509 ${path} ${dn} from-java`), 'OK');
    assert.equal(await peer.request(`get ${path}`), 'OK from-java', 'Java is alice to the server');
    await assert.rejects(bob.getData(path), (error) => isNoAuth(error));
    assert.equal((await alice.getData(path)).data.toString(), 'from-java');
    const { acl } = await alice.getAcl(path);
    assert.deepEqual(
      acl.map((entry) => entry.id),
      [{ scheme: 'x509', id: dn }],
    );
  });

  it('a node we make with an x509 ACL is read by Java with that certificate, and refused to it for another', async () => {
    const forAlice = uniquePath('tls-interop-acl-alice');
    const forBob = uniquePath('tls-interop-acl-bob');
    await alice.create(forAlice, {
      data: Buffer.from('from-node'),
      acl: [x509Acl(material.client('alice').subjectDn)],
    });
    await bob.create(forBob, {
      data: Buffer.from('for-bob'),
      acl: [x509Acl(material.client('bob').subjectDn)],
    });
    assert.equal(await peer.request(`get ${forAlice}`), 'OK from-node');
    assert.equal(await peer.request(`get ${forBob}`), 'NOAUTH');
  });
});
