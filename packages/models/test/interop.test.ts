import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { op, type FrameworkClient, type TransactionOp } from '@zkrecipes/framework';
import { JavaPeer, TestingServer, uniquePath } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import { ModeledFramework, migrationHash } from '../src/index.js';

// dist/test/interop.test.js -> test/fixtures/ModelsPeer.java in the package's sources.
const peerSource = new URL('../../test/fixtures/ModelsPeer.java', import.meta.url).pathname;
const JACKSON_JARS = ['jackson-databind.jar', 'jackson-core.jar', 'jackson-annotations.jar'];

const b64 = (text: string): string => Buffer.from(text).toString('base64');
const bytesOf = (answer: string): Buffer => Buffer.from(answer.slice(3), 'base64');

/** The Java record's fields in declaration order; `nickname` is unknown to Java. */
const Person = z.object({
  name: z.string(),
  age: z.number().int(),
  score: z.number(),
  tags: z.array(z.string()),
  nickname: z.string().optional(),
});

describe('models interop with Jackson (as Curator JacksonModelSerializer) and Curator 5.4', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  let peer: JavaPeer;
  before(async () => {
    server = await TestingServer.start();
    client = await startClient(server.connectString);
    peer = await JavaPeer.start({
      source: peerSource,
      args: [server.connectString],
      extraJars: JACKSON_JARS,
    });
  });
  after(async () => {
    await peer.close();
    await client.close();
    await server.close();
  });

  it('reads what Java writes, and writes the bytes Java writes', async () => {
    const base = uniquePath('people');
    const people = new ModeledFramework(client, { path: `${base}/{id}`, schema: Person });
    const name = 'Zoë "Z" \u{1F600} <&> / \\';
    const written = bytesOf(
      await peer.request(`write ${base}/z ${b64(name)} 41 1.5 ${b64('a,b')}`),
    );
    const read = await people.read({ id: 'z' });
    assert.deepEqual(read.value, { name, age: 41, score: 1.5, tags: ['a', 'b'] });
    await people.set({ id: 'ours' }, read.value);
    assert.deepEqual((await client.getData(`${base}/ours`)).data, written);
    // A whole double: Java writes 2.0, JavaScript has no such distinction; both read it.
    await peer.request(`write ${base}/w ${b64('w')} 1 2.0 ${b64('x')}`);
    assert.equal((await people.read({ id: 'w' })).value.score, 2);
  });

  it('Java reads what ours writes into its class, ignoring properties it does not know', async () => {
    const base = uniquePath('people');
    const people = new ModeledFramework(client, { path: `${base}/{id}`, schema: Person });
    const value = { name: 'Ann\n\u2028é', age: 7, score: 0.25, tags: ['t'], nickname: 'A' };
    await people.set({ id: 'a' }, value);
    const back = bytesOf(await peer.request(`read ${base}/a`));
    const { nickname, ...known } = value;
    assert.equal(nickname, 'A');
    assert.deepEqual(JSON.parse(back.toString('utf8')), known);
    await people.set({ id: 'b' }, known);
    assert.deepEqual((await client.getData(`${base}/b`)).data, back);
  });

  it("migration hashes equal Curator MigrationManager's for the same ops", async () => {
    const data = Buffer.from([0x00, 0x05, 0x7f, 0x80, 0xff, 0x41]);
    const sets: { ops: TransactionOp[]; java: object[]; namespace?: string }[] = [
      {
        ops: [op.create('/m/a', { data }), op.create('/m/b')],
        java: [
          { type: 'create', path: '/m/a', data: data.toString('base64') },
          { type: 'create', path: '/m/b' },
        ],
      },
      {
        ops: [
          op.create('/m/odd,%}name', { mode: 'PERSISTENT_SEQUENTIAL', data: Buffer.from('é') }),
          op.create('/m/c', { mode: 'CONTAINER' }),
          op.create('/m/t', { mode: 'PERSISTENT_WITH_TTL', ttlMs: 60_000 }),
          op.setData('/m/a', data, { version: 3 }),
          op.check('/m/a', { version: 4 }),
          op.delete('/m/b'),
        ],
        java: [
          { type: 'create', path: '/m/odd,%}name', mode: 'PERSISTENT_SEQUENTIAL', data: b64('é') },
          { type: 'create', path: '/m/c', mode: 'CONTAINER' },
          { type: 'create', path: '/m/t', mode: 'PERSISTENT_WITH_TTL', ttl: 60_000 },
          { type: 'setData', path: '/m/a', data: data.toString('base64'), version: 3 },
          { type: 'check', path: '/m/a', version: 4 },
          { type: 'delete', path: '/m/b' },
        ],
      },
      {
        namespace: 'ns',
        ops: [op.create('/x', { data })],
        java: [{ type: 'create', path: '/x', data: data.toString('base64') }],
      },
    ];
    for (const [i, set] of sets.entries()) {
      const java = bytesOf(
        await peer.request(`hash ${set.namespace ?? '-'} ${b64(JSON.stringify(set.java))}`),
      );
      assert.deepEqual(migrationHash(set.ops, set.namespace), java, `set ${i}`);
    }
  });
});
