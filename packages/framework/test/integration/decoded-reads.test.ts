import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { isBadVersion, isNoNode } from '../../src/errors/predicates.js';
import type { ZooKeeperError } from '../../src/errors/zookeeper-error.js';
import { ConnectionState } from '../../src/state/connection-state.js';
import type { WatchedEvent } from '../../src/zk/zookeeper-types.js';
import { quickClient } from './fixtures/quick-client.js';

/*
 * exists, getData, getChildren and setData are sent by the adapter itself and their replies
 * decoded by @zkrecipes/wire; a watched read registers its watcher with nzc as nzc's own read
 * would. These tests pin what that must keep: the answers, the errors, and watches that fire
 * (also after a reconnect, where nzc's SetWatches must carry them).
 */
describe('exists, getData, getChildren and setData decoded by the wire package (real server)', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  let other: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    client = await quickClient(server.connectString, { sessionTimeoutMs: 10_000 });
    other = await quickClient(server.connectString);
  });
  after(async () => {
    await client.close();
    await other.close();
    await server.close();
  });

  it('answers data, children and Stats as the server has them, and errors with the path', async () => {
    const path = await client.create(uniquePath('decoded'));
    assert.deepEqual((await client.getData(path)).data, Buffer.alloc(0));
    // Several socket chunks: the reply is joined before it is decoded.
    const big = Buffer.alloc(600_000, 7);
    const set = await client.setData(path, big);
    assert.equal(set.version, 1);
    assert.equal(set.dataLength, big.length);
    const read = await client.getData(path);
    assert.ok(read.data.equals(big));
    assert.deepEqual(read.stat, set);
    assert.deepEqual(await client.exists(path), set);
    await client.create(`${path}/b`);
    await client.create(`${path}/a`);
    const { children, stat } = await client.getChildren(path, { stat: true });
    assert.deepEqual([...children].sort(), ['a', 'b']);
    assert.equal(stat?.numChildren, 2);
    assert.equal(stat?.cversion, 2);
    assert.ok(stat !== undefined && stat.pzxid > set.mzxid);

    const missing = `${path}/missing`;
    assert.equal(await client.exists(missing), null);
    for (const attempt of [
      client.getData(missing),
      client.getChildren(missing),
      client.setData(missing, Buffer.from('x')),
    ]) {
      await assert.rejects(
        attempt,
        (error) => isNoNode(error) && (error as ZooKeeperError).path === missing,
      );
    }
    await assert.rejects(
      client.setData(path, Buffer.from('x'), { version: 0 }),
      (error) => isBadVersion(error) && (error as ZooKeeperError).path === path,
    );
  });

  it('an exists watch on a missing node fires NODE_CREATED, also under a chroot', async () => {
    const chroot = await client.create(uniquePath('decoded-chroot'));
    const rooted = await quickClient(`${server.connectString}${chroot}`);
    try {
      const plain: WatchedEvent[] = [];
      const underChroot: WatchedEvent[] = [];
      assert.equal(await client.exists(`${chroot}/n`, { watch: (e) => plain.push(e) }), null);
      assert.equal(await rooted.exists('/n', { watch: (e) => underChroot.push(e) }), null);
      await other.create(`${chroot}/n`);
      await waitFor(() => plain.length > 0 && underChroot.length > 0, {
        timeoutMs: timing.ms(5000),
        message: 'existence watches fire',
      });
      assert.deepEqual(plain, [{ type: 'NODE_CREATED', path: `${chroot}/n` }]);
      assert.deepEqual(underChroot, [{ type: 'NODE_CREATED', path: '/n' }]);
    } finally {
      await rooted.close();
    }
  });

  it('server restarted within the session: watches set by every read are re-set and fire after the reconnect', async () => {
    const path = await client.create(uniquePath('decoded-restart'));
    const missing = `${path}-missing`;
    const seen: string[] = [];
    await client.getData(path, { watch: (e) => seen.push(`getData ${e.type}`) });
    await client.exists(path, { watch: (e) => seen.push(`exists ${e.type}`) });
    await client.getChildren(path, { watch: (e) => seen.push(`getChildren ${e.type}`) });
    await client.exists(missing, { watch: (e) => seen.push(`exists-missing ${e.type}`) });
    const sessionBefore = client.sessionId;

    const reconnected = new Promise<void>((resolve) => {
      const stop = client.on('stateChanged', (state) => {
        if (state !== ConnectionState.RECONNECTED) return;
        stop();
        resolve();
      });
    });
    await server.stop();
    await server.restart();
    await reconnected;
    assert.equal(client.sessionId, sessionBefore, 'the session survived the restart');

    await other.setData(path, Buffer.from('changed'));
    await other.create(`${path}/child`);
    await other.create(missing);
    await waitFor(() => seen.length === 4, {
      timeoutMs: timing.ms(10_000),
      message: 'all four watches fire after the reconnect',
    });
    assert.deepEqual([...seen].sort(), [
      'exists NODE_DATA_CHANGED',
      'exists-missing NODE_CREATED',
      'getChildren NODE_CHILDREN_CHANGED',
      'getData NODE_DATA_CHANGED',
    ]);
  });
});
