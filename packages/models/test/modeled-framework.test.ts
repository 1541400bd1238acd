import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as v from 'valibot';
import { z } from 'zod';
import {
  BadVersionError,
  InvalidArgumentError,
  isNoNode,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { TestingServer, timing, uniquePath } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import {
  ModelDataError,
  ModeledFramework,
  ModelValidationError,
  type ModelWatchEvent,
  type StandardSchemaV1,
} from '../src/index.js';

const User = z.object({
  name: z.string().min(1),
  age: z.number().int(),
  tags: z.array(z.string()),
});
const Config = v.object({
  url: v.pipe(v.string(), v.url()),
  retries: v.number(),
  ratio: v.number(),
});

describe('ModeledFramework', () => {
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

  it('round-trips a zod model as compact JSON, creating parents, and sets an existing node', async () => {
    const base = uniquePath('users');
    const users = new ModeledFramework(client, { path: `${base}/{id}/profile`, schema: User });
    const ada = { name: 'Ada', age: 36, tags: ['math', 'é\u{1F600}'] };
    const stat = await users.set({ id: '42' }, ada);
    assert.equal(stat.version, 0);
    const raw = await other.getData(`${base}/42/profile`);
    assert.equal(
      raw.data.toString('utf8'),
      '{"name":"Ada","age":36,"tags":["math","é\\uD83D\\uDE00"]}',
    );
    // Parents are containers (Curator's createParentsAsContainers).
    assert.equal((await other.exists(`${base}/42`))?.ephemeralOwner, 0n);
    const read = await users.read({ id: '42' });
    assert.deepEqual(read.value, ada);
    assert.equal(read.path, `${base}/42/profile`);
    const again = await users.set({ id: '42' }, { ...ada, age: 37 });
    assert.equal(again.version, 1);
    assert.equal((await users.read({ id: '42' })).value.age, 37);
  });

  it('round-trips a valibot model, fractions as Jackson writes them', async () => {
    const path = uniquePath('config');
    const config = new ModeledFramework(client, { path, schema: Config });
    await config.set({}, { url: 'https://example.com/x', retries: 3, ratio: 1e21 });
    assert.equal(
      (await other.getData(path)).data.toString(),
      '{"url":"https://example.com/x","retries":3,"ratio":1.0E21}',
    );
    assert.deepEqual((await config.read({})).value, {
      url: 'https://example.com/x',
      retries: 3,
      ratio: 1e21,
    });
  });

  it('refuses an invalid value before sending anything: no node made, an existing one unchanged', async () => {
    const base = uniquePath('refused');
    const users = new ModeledFramework(client, { path: `${base}/{id}`, schema: User });
    const bad = { name: '', age: 1.5, tags: [] } as unknown as z.input<typeof User>;
    const refused = await users.set({ id: 'a' }, bad).catch((error: unknown) => error);
    assert.ok(refused instanceof ModelValidationError);
    assert.ok(refused instanceof InvalidArgumentError);
    assert.deepEqual(
      refused.issues.map((issue) => issue.path),
      [['name'], ['age']],
    );
    assert.equal(await other.exists(base), null, 'not even a parent was created');
    await users.set({ id: 'a' }, { name: 'ok', age: 1, tags: [] });
    await assert.rejects(users.update({ id: 'a' }, bad), ModelValidationError);
    const stat = await other.exists(`${base}/a`);
    assert.equal(stat?.version, 0, 'the node was not written');
  });

  it('rejects a read of corrupt data with ModelDataError carrying path, bytes and issues', async () => {
    const base = uniquePath('corrupt');
    const users = new ModeledFramework(client, { path: `${base}/{id}`, schema: User });
    await other.create(`${base}/json`, { data: Buffer.from('{"name":'), createParents: true });
    await other.create(`${base}/schema`, {
      data: Buffer.from('{"name":"x","age":"old","tags":[]}'),
    });
    await other.create(`${base}/empty`);
    await other.create(`${base}/utf8`, { data: Buffer.from([0x22, 0xff, 0x22]) });
    for (const id of ['json', 'empty', 'utf8']) {
      const error = await users.read({ id }).catch((e: unknown) => e);
      assert.ok(error instanceof ModelDataError, id);
      assert.equal(error.code, 'MODEL_DATA');
      assert.equal(error.path, `${base}/${id}`);
      assert.deepEqual(error.issues, []);
      assert.ok(error.cause !== undefined);
    }
    const error = await users.read({ id: 'schema' }).catch((e: unknown) => e);
    assert.ok(error instanceof ModelDataError);
    assert.deepEqual(
      error.issues.map((issue) => issue.path),
      [['age']],
    );
    assert.equal(Buffer.from(error.data).toString(), '{"name":"x","age":"old","tags":[]}');
  });

  it('update and delete with a version: BadVersionError on a conflict, nothing written', async () => {
    const path = uniquePath('versioned');
    const counter = new ModeledFramework(client, { path, schema: z.object({ n: z.number() }) });
    await counter.set({}, { n: 1 });
    const seen = await counter.read({});
    await other.setData(path, Buffer.from('{"n":5}'));
    await assert.rejects(
      counter.update({}, { n: seen.value.n + 1 }, { version: seen.stat.version }),
      BadVersionError,
    );
    assert.equal((await counter.read({})).value.n, 5);
    const fresh = await counter.read({});
    const stat = await counter.update({}, { n: 6 }, { version: fresh.stat.version });
    assert.equal(stat.version, fresh.stat.version + 1);
    await assert.rejects(counter.delete({}, { version: fresh.stat.version }), BadVersionError);
    await counter.delete({}, { version: stat.version });
    assert.equal(await counter.exists({}), null);
    await assert.rejects(counter.read({}), isNoNode);
  });

  it('lists children, and reads them as models', async () => {
    const base = uniquePath('all-users');
    const one = new ModeledFramework(client, { path: `${base}/{id}`, schema: User });
    const all = new ModeledFramework(client, { path: base, schema: User });
    await one.set({ id: 'b' }, { name: 'Bo', age: 2, tags: [] });
    await one.set({ id: 'a' }, { name: 'Al', age: 1, tags: [] });
    assert.deepEqual(await all.children({}), ['a', 'b']);
    const nodes = await all.childrenAsModels({});
    assert.deepEqual(
      nodes.map((node) => [node.path, node.value.name]),
      [
        [`${base}/a`, 'Al'],
        [`${base}/b`, 'Bo'],
      ],
    );
  });

  it('accepts a hand-written asynchronous Standard Schema', async () => {
    const even: StandardSchemaV1<number> = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: async (value) => {
          await Promise.resolve();
          return typeof value === 'number' && value % 2 === 0
            ? { value }
            : { issues: [{ message: 'not even' }] };
        },
      },
    };
    const path = uniquePath('even');
    const model = new ModeledFramework(client, { path, schema: even });
    await model.set({}, 4);
    assert.equal((await model.read({})).value, 4);
    const refused = await model.set({}, 3).catch((e: unknown) => e);
    assert.ok(refused instanceof ModelValidationError);
    assert.match(refused.message, /not even/);
  });

  it(
    'watch: the value now, then each change, deletion and invalid data, until aborted',
    { timeout: timing.ms(10_000) },
    async () => {
      const path = uniquePath('watched');
      const model = new ModeledFramework(client, { path, schema: z.object({ n: z.number() }) });
      await model.set({}, { n: 1 });
      const abort = new AbortController();
      const seen: string[] = [];
      const describe = (event: ModelWatchEvent<{ n: number }>): string =>
        event.type === 'VALUE' ? `n=${event.value.n}` : event.type;
      const watching = (async () => {
        for await (const event of model.watch({}, { signal: abort.signal })) {
          seen.push(describe(event));
          if (seen.length === 1) await other.setData(path, Buffer.from('{"n":2}'));
          if (seen.length === 2) await other.setData(path, Buffer.from('nope'));
          if (seen.length === 3) await other.delete(path);
          if (seen.length === 4) abort.abort();
        }
      })();
      await watching;
      assert.deepEqual(seen, ['n=1', 'n=2', 'INVALID', 'ABSENT']);
    },
  );

  it('refuses bad parameters and a bad spec before sending anything', async () => {
    const base = uniquePath('bad');
    const users = new ModeledFramework(client, { path: `${base}/{id}`, schema: User });
    const value = { name: 'x', age: 1, tags: [] };
    for (const params of [{}, { id: '' }, { id: 'a/b' }, { id: '..' }, { id: 'x', extra: 'y' }]) {
      await assert.rejects(
        users.set(params as { id: string }, value),
        InvalidArgumentError,
        JSON.stringify(params),
      );
    }
    assert.equal(await other.exists(base), null);
    assert.throws(
      () => new ModeledFramework(client, { path: `${base}/{id}`, schema: {} as typeof User }),
      InvalidArgumentError,
    );
    assert.throws(
      () =>
        new ModeledFramework(client, {
          path: base,
          schema: User,
          createMode: 'PERSISTENT_SEQUENTIAL' as 'PERSISTENT',
        }),
      /createMode/,
    );
  });
});
