import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { JavaPeer } from '../src/java-peer.js';
import { javaClientTlsProperties, NETTY_CLIENT_JARS } from '../src/java-peer-tls.js';
import { TestingServer } from '../src/testing-server.js';
import { TlsMaterial } from '../src/tls-material.js';
import { uniquePath } from '../src/unique-path.js';
import { RawZooKeeperSession } from '../src/wire/raw-zookeeper-session.js';

// dist/test/java-peer-tls.test.js -> test/fixtures/*.java in the package's sources.
const peerSource = new URL('../../test/fixtures/CuratorEchoPeer.java', import.meta.url).pathname;

describe('JavaPeer over TLS', () => {
  let material: TlsMaterial;
  let server: TestingServer;
  before(async () => {
    material = await TlsMaterial.create({ clients: ['alice'] });
    // need: a peer that did not present the client certificate would never connect.
    server = await TestingServer.start({ tls: { material, clientAuth: 'need' } });
  });
  after(async () => {
    await server.close();
    await material.close();
  });

  it('tls: Curator connects to the secure port with a client certificate and its writes are seen on the plaintext port', async () => {
    const peer = await JavaPeer.start({
      source: peerSource,
      // The secure port speaks TLS only: a plaintext client never gets a session there.
      args: [server.secureConnectString],
      tls: { caCertFile: material.caCertFile, client: material.client('alice') },
    });
    const raw = await RawZooKeeperSession.connect(server.connectString);
    try {
      const path = `${uniquePath('java-tls')}/child`;
      assert.equal(await peer.request(`create ${path} over tls`), 'OK');
      assert.equal((await raw.getData(path)).toString(), 'over tls');
    } finally {
      await raw.close();
      await peer.close();
    }
  });

  it('the TLS system properties: a PEM trust store, and a PEM key store only with a client', () => {
    const ca = material.caCertFile;
    assert.deepEqual(javaClientTlsProperties({ caCertFile: ca }), {
      'zookeeper.client.secure': 'true',
      'zookeeper.clientCnxnSocket': 'org.apache.zookeeper.ClientCnxnSocketNetty',
      'zookeeper.ssl.trustStore.location': ca,
      'zookeeper.ssl.trustStore.type': 'PEM',
    });
    const alice = material.client('alice');
    const withClient = javaClientTlsProperties({ caCertFile: ca, client: alice });
    assert.equal(withClient['zookeeper.ssl.keyStore.location'], alice.keyStoreFile);
    assert.equal(withClient['zookeeper.ssl.keyStore.type'], 'PEM');
    assert.ok(NETTY_CLIENT_JARS.includes('netty-handler.jar'));
  });
});
