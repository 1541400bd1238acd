import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  RawZooKeeperError,
  RawZooKeeperSession,
  TestingServer,
  uniquePath,
  ZooKeeperErrorCode,
} from '../src/index.js';

describe('RawZooKeeperSession.watchData', () => {
  let server: TestingServer;
  let writer: RawZooKeeperSession;
  before(async () => {
    server = await TestingServer.start();
    writer = await RawZooKeeperSession.connect(server.connectString);
  });
  after(async () => {
    await writer.close();
    await server.close();
  });

  it('fires with NodeDeleted (2) when another session deletes the watched node', async () => {
    await using watcher = await RawZooKeeperSession.connect(server.connectString);
    const path = uniquePath('watch-delete');
    await writer.create(path);
    const watch = await watcher.watchData(path);
    assert.ok(watch, 'an existing node leaves a watch');
    await writer.delete(path);
    assert.deepEqual(await watch.fired, { type: 2, path });
  });

  it('fires once: the next event needs a new watch', async () => {
    await using watcher = await RawZooKeeperSession.connect(server.connectString);
    const path = uniquePath('watch-once');
    await writer.create(path);
    const watch = await watcher.watchData(path);
    assert.ok(watch);
    await writer.delete(path);
    await writer.create(path);
    assert.deepEqual(await watch.fired, { type: 2, path }, 'the first event fires it');
    const again = await watcher.watchData(path);
    assert.ok(again);
    await writer.delete(path);
    assert.deepEqual(await again.fired, { type: 2, path });
  });

  it('answers undefined for a missing node (the server leaves no watch there)', async () => {
    await using watcher = await RawZooKeeperSession.connect(server.connectString);
    const path = uniquePath('watch-missing');
    assert.equal(await watcher.watchData(path), undefined);
    await writer.create(path);
    const watch = await watcher.watchData(path);
    assert.ok(watch, 'the node exists now');
    await writer.delete(path);
    assert.deepEqual(await watch.fired, { type: 2, path });
  });

  it('rejects a waiting watch with CONNECTION_LOSS when the connection ends', async () => {
    const watcher = await RawZooKeeperSession.connect(server.connectString);
    const path = uniquePath('watch-lost');
    await writer.create(path);
    const watch = await watcher.watchData(path);
    assert.ok(watch);
    watcher.destroy();
    await assert.rejects(
      watch.fired,
      (error: unknown) =>
        error instanceof RawZooKeeperError && error.code === ZooKeeperErrorCode.CONNECTION_LOSS,
    );
  });
});
