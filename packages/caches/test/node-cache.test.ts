import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { firstValueFrom } from 'rxjs';
import type { FrameworkClient } from '@zkrecipes/framework';
import { FaultProxy, killSession, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import { NodeCache, RecipeState, type ChildData, type RecipeError } from '../src/index.js';

/** Records a NodeCache's listener calls as data strings ('-' for "no node"). */
function record(cache: NodeCache): string[] {
  const seen: string[] = [];
  cache.on('nodeChanged', (data) => {
    seen.push(describeValue(data));
  });
  return seen;
}

function describeValue(data: ChildData | undefined): string {
  return data === undefined ? '-' : (data.data?.toString() ?? '');
}

describe('NodeCache', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  let writer: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    client = await startClient(server.connectString);
    writer = await startClient(server.connectString);
  });
  after(async () => {
    await client.close();
    await writer.close();
    await server.close();
  });

  it('follows create, update, delete and re-create; the changes stream replays the latest value', async () => {
    const path = uniquePath('node');
    await using cache = new NodeCache(client, path);
    const seen = record(cache);
    await cache.start();
    await writer.create(path, { data: Buffer.from('1') });
    await waitFor(() => seen.length === 1, { message: 'created' });
    await writer.setData(path, Buffer.from('2'));
    await waitFor(() => seen.length === 2, { message: 'updated' });
    await writer.delete(path);
    await waitFor(() => seen.length === 3, { message: 'deleted' });
    assert.equal(cache.getCurrentData(), undefined);
    await writer.create(path, { data: Buffer.from('3') });
    await waitFor(() => seen.length === 4, { message: 're-created' });
    assert.deepEqual(seen, ['1', '2', '-', '3']);
    assert.equal(cache.getCurrentData()?.stat.version, 0);
    assert.equal(describeValue(await firstValueFrom(cache.changes)), '3');
  });

  it('changes and errors read with for await: the latest value first, each change, the end on close()', async () => {
    const path = await writer.create(uniquePath('node-iter'), { data: Buffer.from('a') });
    const cache = new NodeCache(client, path);
    await cache.start({ buildInitial: true });
    const values: string[] = [];
    const loop = (async () => {
      for await (const data of cache.changes) values.push(describeValue(data));
      return 'ended';
    })();
    const errors = (async () => {
      for await (const failure of cache.errors) assert.fail(`unexpected ${failure.context}`);
      return 'ended';
    })();
    await waitFor(() => values.length === 1, { message: 'the replayed value' });
    await writer.setData(path, Buffer.from('b'));
    await waitFor(() => values.length === 2, { message: 'the update' });
    await cache.close();
    assert.equal(await loop, 'ended');
    assert.equal(await errors, 'ended');
    assert.deepEqual(values, ['a', 'b']);
  });

  it('buildInitial: start resolves with the data read and no change; rebuild reads again without one', async () => {
    const path = await writer.create(uniquePath('node-built'), { data: Buffer.from('a') });
    await using cache = new NodeCache(client, path);
    const seen = record(cache);
    await cache.start({ buildInitial: true });
    assert.equal(describeValue(cache.getCurrentData()), 'a');
    await writer.setData(path, Buffer.from('b'));
    await waitFor(() => seen.length === 1, { message: 'the update' });
    await cache.rebuild();
    assert.deepEqual(seen, ['b']);
    assert.equal(describeValue(await firstValueFrom(cache.changes)), 'b');

    await using missing = new NodeCache(client, uniquePath('node-missing'));
    await missing.start({ buildInitial: true });
    assert.equal(missing.getCurrentData(), undefined);
  });

  it('deleted and re-created with the same data while disconnected: reported after reconnect (mzxid)', async () => {
    const path = await writer.create(uniquePath('node-flip'), { data: Buffer.from('same') });
    await using proxy = await FaultProxy.start({ targetPort: server.port });
    const cut = await startClient(proxy.connectString);
    try {
      await using cache = new NodeCache(cut, path);
      const seen = record(cache);
      await cache.start({ buildInitial: true });
      const before = cache.getCurrentData();
      const suspended = waitFor(() => cut.connectionState === 'SUSPENDED', { intervalMs: 5 });
      proxy.drop();
      await suspended;
      await writer.delete(path);
      await writer.create(path, { data: Buffer.from('same') });
      proxy.heal();
      await waitFor(() => seen.length === 1, { message: 'the re-creation' });
      assert.deepEqual(seen, ['same']);
      assert.ok(before && before.stat.czxid < (cache.getCurrentData()?.stat.czxid ?? 0n));
    } finally {
      await cut.close();
    }
  });

  it('survives a new session: a change made while the session was being killed is seen', async () => {
    const path = await writer.create(uniquePath('node-session'), { data: Buffer.from('old') });
    await using proxy = await FaultProxy.start({ targetPort: server.port });
    const own = await startClient(proxy.connectString);
    try {
      await using cache = new NodeCache(own, path);
      const seen = record(cache);
      await cache.start({ buildInitial: true });
      const session = own.sessionId;
      // Cut off first, so the owner cannot win its session back while it is being killed.
      const suspended = waitFor(() => own.connectionState === 'SUSPENDED', { intervalMs: 5 });
      proxy.drop();
      await suspended;
      await killSession(own, server.connectString);
      await writer.setData(path, Buffer.from('new'));
      proxy.heal();
      await waitFor(() => seen.includes('new'), { message: 'the change after the new session' });
      assert.notEqual(own.sessionId, session);
      assert.equal(describeValue(cache.getCurrentData()), 'new');
    } finally {
      await own.close();
    }
  });

  it('lifecycle: start twice rejects, close twice is a no-op and completes the stream; a throwing listener goes to errors', async () => {
    const path = await writer.create(uniquePath('node-life'));
    const cache = new NodeCache(client, path);
    assert.equal(cache.state, RecipeState.LATENT);
    const errors: RecipeError[] = [];
    cache.errors.subscribe((error) => errors.push(error));
    cache.on('nodeChanged', () => Promise.reject(new Error('async listener bug')));
    await cache.start();
    await assert.rejects(cache.start(), /start\(\) on a STARTED NodeCache/);
    await waitFor(() => errors.length === 1, { message: 'the listener failure' });
    assert.equal(errors[0]?.context, 'nodeChanged listener');
    let completed = false;
    cache.changes.subscribe({ complete: () => (completed = true) });
    await cache.close();
    await cache.close();
    assert.equal(cache.state, RecipeState.CLOSED);
    assert.ok(completed);
    await assert.rejects(cache.rebuild(), (e: Error) => e.name === 'ClosedError');
    assert.throws(() => cache.on('other' as 'nodeChanged', () => undefined), /only 'nodeChanged'/);
  });
});
