import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  isNoNode,
  isNodeExists,
  isOutcomeUnknown,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { FaultProxy, killSession, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import { PathChildrenCache, StartMode } from '../src/index.js';
import { EventLog } from './helpers.js';

/** `name=data@mzxid`, sorted: equal views mean equal names, data and versions. */
function cacheState(cache: PathChildrenCache): string[] {
  return cache
    .getCurrentData()
    .map(
      (c) => `${c.path.slice(c.path.lastIndexOf('/') + 1)}=${c.data?.toString()}@${c.stat.mzxid}`,
    );
}

async function serverState(client: FrameworkClient, parent: string): Promise<string[]> {
  const state: string[] = [];
  for (const name of (await client.getChildren(parent)).sort()) {
    const { data, stat } = await client.getData(`${parent}/${name}`);
    state.push(`${name}=${data.toString()}@${stat.mzxid}`);
  }
  return state;
}

/**
 * Creates a sentinel child and waits for the cache to report it: every event caused by what
 * happened before has been delivered by then (ZooKeeper orders a session's notifications and
 * replies), so the log before the sentinel is complete.
 */
async function settle(writer: FrameworkClient, log: EventLog, parent: string): Promise<string[]> {
  const name = `zz-sentinel-${log.events.length}`;
  await writer.create(`${parent}/${name}`);
  await log.waitForLine(`CHILD_ADDED ${name}`);
  await writer.delete(`${parent}/${name}`);
  await log.waitForLine(`CHILD_REMOVED ${name}`);
  return log.lines.filter((line) => !line.includes('zz-sentinel'));
}

describe('PathChildrenCache under faults', () => {
  let server: TestingServer;
  let writer: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    writer = await startClient(server.connectString);
  });
  after(async () => {
    await writer.close();
    await server.close();
  });

  async function populate(names: string[]): Promise<string> {
    const parent = await writer.create(uniquePath('pcc-fault'));
    for (const name of names) await writer.create(`${parent}/${name}`, { data: Buffer.from(name) });
    return parent;
  }

  it('a child deleted and re-created with the same data while disconnected is reported after reconnect (mzxid, CURATOR-391)', async () => {
    const parent = await populate(['x']);
    await using proxy = await FaultProxy.start({ targetPort: server.port });
    const client = await startClient(proxy.connectString);
    try {
      await using cache = new PathChildrenCache(client, parent);
      const log = new EventLog(cache);
      await cache.start(StartMode.BUILD_INITIAL_CACHE);
      const before = cache.getCurrentData(`${parent}/x`);
      proxy.drop();
      await log.waitForLine('CONNECTION_SUSPENDED');
      await writer.delete(`${parent}/x`);
      await writer.create(`${parent}/x`, { data: Buffer.from('x') });
      proxy.heal();
      await log.waitForLine('CHILD_UPDATED x');
      assert.deepEqual(await settle(writer, log, parent), [
        'CONNECTION_SUSPENDED',
        'CONNECTION_RECONNECTED',
        'CHILD_UPDATED x',
      ]);
      const after = cache.getCurrentData(`${parent}/x`);
      // Same data, same version: only the zxids tell the two incarnations apart.
      assert.equal(after?.stat.version, before?.stat.version);
      assert.equal(after?.data?.toString(), 'x');
      assert.ok(after && before && after.stat.czxid > before.stat.czxid);
    } finally {
      await client.close();
    }
  });

  it('connection dropped and restored in the same session: the events after RECONNECTED are exactly the differences', async () => {
    const parent = await populate(['a', 'b', 'c', 'd']);
    await using proxy = await FaultProxy.start({ targetPort: server.port });
    const client = await startClient(proxy.connectString);
    try {
      const sessionId = client.sessionId;
      await using cache = new PathChildrenCache(client, parent);
      const log = new EventLog(cache);
      await cache.start(StartMode.BUILD_INITIAL_CACHE);
      proxy.drop();
      await log.waitForLine('CONNECTION_SUSPENDED');
      await writer.create(`${parent}/e`, { data: Buffer.from('e') });
      await writer.delete(`${parent}/b`);
      await writer.setData(`${parent}/c`, Buffer.from('c2'));
      await writer.delete(`${parent}/d`);
      await writer.create(`${parent}/d`, { data: Buffer.from('d') });
      proxy.heal();
      await log.waitForLine('CONNECTION_RECONNECTED');
      const lines = await settle(writer, log, parent);
      assert.equal(client.sessionId, sessionId);
      assert.deepEqual(lines.slice(0, 2), ['CONNECTION_SUSPENDED', 'CONNECTION_RECONNECTED']);
      assert.deepEqual(lines.slice(2).sort(), [
        'CHILD_ADDED e',
        'CHILD_REMOVED b',
        'CHILD_UPDATED c',
        'CHILD_UPDATED d',
      ]);
      assert.deepEqual(cacheState(cache), await serverState(writer, parent));
    } finally {
      await client.close();
    }
  });

  it('session killed while disconnected: after LOST and RECONNECTED in a new session the events are exactly the differences, own ephemerals included', async () => {
    const parent = await populate(['a', 'b', 'c']);
    await using proxy = await FaultProxy.start({ targetPort: server.port });
    const client = await startClient(proxy.connectString);
    try {
      const oldSession = client.sessionId;
      await client.create(`${parent}/mine`, { mode: 'EPHEMERAL' });
      await using cache = new PathChildrenCache(client, parent);
      const log = new EventLog(cache);
      await cache.start(StartMode.BUILD_INITIAL_CACHE);
      proxy.drop();
      await log.waitForLine('CONNECTION_SUSPENDED');
      await killSession(client, server.connectString);
      await writer.create(`${parent}/e`, { data: Buffer.from('e') });
      await writer.delete(`${parent}/b`);
      await writer.setData(`${parent}/c`, Buffer.from('c2'));
      proxy.heal();
      await log.waitForLine('CONNECTION_RECONNECTED');
      const lines = await settle(writer, log, parent);
      assert.notEqual(client.sessionId, oldSession);
      assert.deepEqual(lines.slice(0, 3), [
        'CONNECTION_SUSPENDED',
        'CONNECTION_LOST',
        'CONNECTION_RECONNECTED',
      ]);
      assert.deepEqual(lines.slice(3).sort(), [
        'CHILD_ADDED e',
        'CHILD_REMOVED b',
        'CHILD_REMOVED mine',
        'CHILD_UPDATED c',
      ]);
      assert.deepEqual(cacheState(cache), await serverState(writer, parent));
    } finally {
      await client.close();
    }
  });

  it('server restarted while another client keeps changing children: after RECONNECTED the cache equals the real children exactly', async () => {
    const names = ['n0', 'n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7'];
    const parent = await populate(names.slice(0, 4));
    const client = await startClient(server.connectString);
    const churner = await startClient(server.connectString);
    try {
      await using cache = new PathChildrenCache(client, parent);
      const log = new EventLog(cache);
      await cache.start(StartMode.POST_INITIALIZED_EVENT);
      await log.waitForLine('INITIALIZED');

      let running = true;
      let operations = 0;
      const churn = (async () => {
        for (let i = 0; running; i++) {
          const path = `${parent}/${names[i % names.length]}`;
          try {
            if (i % 3 === 0) await churner.delete(path);
            else if (i % 3 === 1) await churner.create(path, { data: Buffer.from(`v${i}`) });
            else await churner.setData(path, Buffer.from(`v${i}`));
          } catch (error) {
            // A write cut off by the restart may meet its own effect on retry: OUTCOME_UNKNOWN.
            if (!isOutcomeUnknown(error) && !isNoNode(error) && !isNodeExists(error)) throw error;
          }
          operations++;
        }
      })();
      await waitFor(() => operations >= 20, { message: 'churn before the restart' });
      await server.restart();
      await log.waitForLine('CONNECTION_RECONNECTED');
      const afterRestart = operations;
      await waitFor(() => operations >= afterRestart + 20, { message: 'churn after the restart' });
      running = false;
      await churn;
      const expected = await serverState(writer, parent);
      await waitFor(() => JSON.stringify(cacheState(cache)) === JSON.stringify(expected), {
        message: `the cache to equal ${expected.join(', ')}`,
      });
      assert.deepEqual(cacheState(cache), expected);
      assert.ok(log.lines.includes('CONNECTION_SUSPENDED'));
    } finally {
      await churner.close();
      await client.close();
    }
  });
});
