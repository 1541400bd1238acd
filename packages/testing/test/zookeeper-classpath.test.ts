import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  DEFAULT_JAR_DIR,
  findJava,
  TestingServer,
  ZOOKEEPER_JARS,
  zookeeperClasspath,
} from '../src/index.js';

describe('zookeeperClasspath', () => {
  const emptyDir = mkdtempSync(join(tmpdir(), 'zkrecipes-nojars-'));
  after(() => rmSync(emptyDir, { recursive: true, force: true }));

  it('lists every Debian jar from /usr/share/java by default', () => {
    const classpath = zookeeperClasspath({ env: {} });
    assert.deepEqual(
      classpath.split(':'),
      ZOOKEEPER_JARS.map((jar) => `${DEFAULT_JAR_DIR}/${jar}`),
    );
  });

  it('uses ZOOKEEPER_CLASSPATH as given', () => {
    assert.equal(
      zookeeperClasspath({ env: { ZOOKEEPER_CLASSPATH: '/opt/zk/lib/*' } }),
      '/opt/zk/lib/*',
    );
  });

  it('names the missing jars, the Debian package and ZOOKEEPER_CLASSPATH when the jars are absent', () => {
    assert.throws(
      () => zookeeperClasspath({ jarDir: emptyDir, env: { ZOOKEEPER_CLASSPATH: '/ignored' } }),
      (error: Error) => {
        assert.match(error.message, new RegExp(`ZooKeeper jars not found in ${emptyDir}`));
        assert.match(error.message, /missing: zookeeper\.jar, zookeeper-jute\.jar/);
        assert.match(error.message, /apt-get update && apt-get install -y zookeeper/);
        assert.match(error.message, /ZOOKEEPER_CLASSPATH='<its directory>\/lib\/\*'/);
        // A user's project has none of this repository's scripts.
        assert.doesNotMatch(error.message, /npm run|setup/);
        return true;
      },
    );
  });

  it('TestingServer.start fails with that message before spawning anything', async () => {
    await assert.rejects(TestingServer.start({ jarDir: emptyDir }), /apt-get install -y zookeeper/);
  });
});

describe('findJava', () => {
  it('finds java on PATH', () => {
    assert.match(findJava(), /\/java$/);
  });

  it('names the package to install when java is not on PATH', () => {
    assert.throws(
      () => findJava({ env: { PATH: '' } }),
      (error: Error) => {
        assert.match(error.message, /apt-get install -y default-jre-headless/);
        assert.doesNotMatch(error.message, /npm run|setup/);
        return true;
      },
    );
  });
});
