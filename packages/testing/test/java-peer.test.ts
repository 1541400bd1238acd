import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { JavaPeer } from '../src/java-peer.js';
import { TestingServer } from '../src/testing-server.js';
import { uniquePath } from '../src/unique-path.js';
import { RawZooKeeperSession } from '../src/wire/raw-zookeeper-session.js';

// dist/test/java-peer.test.js -> test/fixtures/*.java in the package's sources.
const peerSource = new URL('../../test/fixtures/CuratorEchoPeer.java', import.meta.url).pathname;

describe('JavaPeer', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(() => server.close());

  it('runs real Curator: a node Curator creates is seen by another client, and answers come back in order', async () => {
    const peer = await JavaPeer.start({ source: peerSource, args: [server.connectString] });
    const raw = await RawZooKeeperSession.connect(server.connectString);
    try {
      const path = `${uniquePath('java')}/child`;
      assert.equal(await peer.request(`create ${path} from java`), 'OK');
      assert.equal((await raw.getData(path)).toString(), 'from java');
      assert.equal(await peer.request(`get ${path}`), 'OK from java');
      await assert.rejects(peer.request('bogus'), /unknown command bogus/);
    } finally {
      await raw.close();
      await peer.close();
    }
  });

  it('kill() ends the process at once (no clean close) and later requests say it exited', async () => {
    const peer = await JavaPeer.start({ source: peerSource, args: [server.connectString] });
    assert.ok(typeof peer.pid === 'number' && peer.pid > 0);
    await peer.kill();
    assert.throws(() => process.kill(peer.pid!, 0), /ESRCH/);
    await assert.rejects(peer.request('get /'), /exited/);
    await peer.kill(); // twice: a no-op
    await peer.close();
  });

  it('extraJars: a jar that is not there is named in the error, before anything starts', async () => {
    await assert.rejects(
      JavaPeer.start({
        source: peerSource,
        args: [server.connectString],
        extraJars: ['no-such-library.jar'],
      }),
      /no-such-library\.jar/,
    );
  });

  it('a missing jar names the Debian package to install, and no script of this repository', async () => {
    await assert.rejects(
      JavaPeer.start({ source: peerSource, extraJars: ['/nonexistent/curator-x-nothing.jar'] }),
      (error: Error) => {
        assert.match(error.message, /apt-get install -y libcurator-recipes-java/);
        assert.doesNotMatch(error.message, /npm run|setup/);
        return true;
      },
    );
  });
});
