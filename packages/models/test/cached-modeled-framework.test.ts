import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { isNoNode, type FrameworkClient } from '@zkrecipes/framework';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import {
  CachedModeledFramework,
  ModelDataError,
  ModeledFramework,
  type ModelCacheEvent,
} from '../src/index.js';

const Item = z.object({ title: z.string(), done: z.boolean() });
type Item = z.output<typeof Item>;

describe('CachedModeledFramework', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  let other: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    client = await startClient(server.connectString);
    other = await startClient(server.connectString);
  });
  after(async () => {
    await client.close();
    await other.close();
    await server.close();
  });

  it("reads locally and follows another client's changes, with decoded events", async () => {
    const base = uniquePath('todo');
    const path = `${base}/lists/{list}/items/{item}` as const;
    const mine = new ModeledFramework(client, { path, schema: Item });
    const theirs = new ModeledFramework(other, { path, schema: Item });
    await theirs.set({ list: 'home', item: '1' }, { title: 'milk', done: false });
    await using cached = new CachedModeledFramework(mine);
    const events: ModelCacheEvent<Item, typeof path>[] = [];
    cached.events.subscribe((event) => events.push(event));
    await cached.start();
    assert.equal((await cached.read({ list: 'home', item: '1' })).value.title, 'milk');

    await theirs.update({ list: 'home', item: '1' }, { title: 'milk', done: true });
    await theirs.set({ list: 'home', item: '2' }, { title: 'eggs', done: false });
    await other.setData(`${base}/lists/home`, Buffer.from('not a model node: ignored'));
    await waitFor(() => events.some((e) => e.type === 'NODE_ADDED' && e.params.item === '2'));
    // Reads now send nothing: the server is not asked (a stopped server would not answer).
    assert.equal((await cached.read({ list: 'home', item: '1' })).value.done, true);
    assert.deepEqual(await cached.children({ list: 'home', item: '1' }), []);
    await theirs.delete({ list: 'home', item: '1' });
    await waitFor(() => events.some((e) => e.type === 'NODE_REMOVED'));
    await assert.rejects(cached.read({ list: 'home', item: '1' }), isNoNode);

    await other.setData(`${base}/lists/home/items/2`, Buffer.from('{"title":1}'));
    await waitFor(() => events.some((e) => e.type === 'INVALID'));
    await assert.rejects(cached.read({ list: 'home', item: '2' }), ModelDataError);

    assert.deepEqual(
      events.map((e) => (e.type === 'INITIALIZED' ? e.type : `${e.type} ${e.params.item}`)),
      [
        'NODE_ADDED 1',
        'INITIALIZED',
        'NODE_UPDATED 1',
        'NODE_ADDED 2',
        'NODE_REMOVED 1',
        'INVALID 2',
      ],
    );
  });

  it('a read waits for the first full read; aborting ends the wait', async () => {
    const base = uniquePath('waiting');
    const model = new ModeledFramework(client, { path: `${base}/{id}`, schema: Item });
    const cached = new CachedModeledFramework(model);
    const early = cached.read({ id: 'x' }, { signal: AbortSignal.timeout(200) });
    await assert.rejects(early, { name: 'TimeoutError' });
    await cached.start();
    await other.create(`${base}/x`, {
      data: Buffer.from('{"title":"t","done":false}'),
      createParents: true,
    });
    await waitFor(
      async () => (await cached.read({ id: 'x' }).catch(() => undefined)) !== undefined,
    );
    const pending = assert.rejects(cached.read({ id: 'y' }), isNoNode);
    await cached.close();
    await pending;
    await assert.rejects(cached.read({ id: 'x' }), { name: 'ClosedError' });
  });
});
