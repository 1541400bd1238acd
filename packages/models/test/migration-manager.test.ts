import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import {
  InvalidArgumentError,
  op,
  RetryNTimes,
  TransactionFailedError,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { FaultProxy, TestingServer, timing, uniquePath } from '@zkrecipes/testing';
import { connect, startClient } from '@zkrecipes/test-support';
import { MigrationError, MigrationManager, migrationHash } from '../src/index.js';
import { counterSet } from './fixtures/counter-set.js';

// dist/test/migration-manager.test.js -> dist/test/fixtures/migrate-process.js
const migrateProcess = new URL('./fixtures/migrate-process.js', import.meta.url).pathname;

/** The children of `path`, sorted. */
async function childrenOf(client: FrameworkClient, path: string): Promise<string[]> {
  return (await client.getChildren(path)).sort();
}

describe('MigrationManager', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    client = await startClient(server.connectString);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const managerAt = (base: string, on = client): MigrationManager =>
    new MigrationManager(on, { lockPath: `${base}/locks`, metaDataPath: `${base}/meta` });

  it(
    '5 processes migrating at once apply each migration exactly once',
    { timeout: timing.ms(60_000) },
    async () => {
      const base = uniquePath('migrations');
      const children = Array.from({ length: 5 }, () =>
        spawn(process.execPath, [migrateProcess, server.connectString, base], {
          stdio: ['pipe', 'pipe', 'inherit'],
        }),
      );
      try {
        const outputs = children.map((child) => {
          const lines = createInterface({ input: child.stdout });
          const ready = new Promise<void>((resolve) =>
            lines.on('line', (l) => l === 'READY' && resolve()),
          );
          const applied = new Promise<number>((resolve, reject) => {
            lines.on('line', (line) => {
              const match = /^APPLIED (\d+)$/.exec(line);
              if (match !== null) resolve(Number(match[1]));
            });
            child.once('exit', (code) => reject(new Error(`migrate process exited (${code})`)));
          });
          return { ready, applied };
        });
        await Promise.all(outputs.map((output) => output.ready));
        for (const child of children) child.stdin.write('GO\n');
        const applied = await Promise.all(outputs.map((output) => output.applied));
        assert.equal(
          applied.reduce((sum, n) => sum + n, 0),
          3,
          `applied: ${applied.join(',')}`,
        );
        const traces = await childrenOf(client, `${base}/applied`);
        assert.deepEqual(
          traces.map((name) => name.slice(0, 3)),
          ['m0-', 'm1-', 'm2-'],
        );
        const records = await childrenOf(client, `${base}/meta/counter`);
        assert.deepEqual(records, ['meta-0000000000', 'meta-0000000001', 'meta-0000000002']);
        const set = counterSet(base, 3);
        for (const [i, name] of records.entries()) {
          const { data } = await client.getData(`${base}/meta/counter/${name}`);
          assert.deepEqual(data, migrationHash(set.migrations[i]!, undefined));
        }
      } finally {
        for (const child of children) child.kill();
      }
    },
  );

  it('applies only migrations appended since, and refuses records that do not match', async () => {
    const base = uniquePath('appended');
    const manager = managerAt(base);
    assert.equal(await manager.migrate(counterSet(base, 1)), 1);
    assert.equal(await manager.migrate(counterSet(base, 1)), 0);
    assert.equal(await manager.migrate(counterSet(base, 2)), 1);
    assert.deepEqual(
      (await childrenOf(client, `${base}/applied`)).map((name) => name.slice(0, 3)),
      ['m0-', 'm1-'],
    );
    const changed = counterSet(`${base}/other`, 2);
    const mismatch = await manager.migrate(changed).catch((e: unknown) => e);
    assert.ok(mismatch instanceof MigrationError);
    assert.equal(mismatch.reason, 'MISMATCH');
    const shorter = await manager
      .migrate({ id: 'counter', migrations: [] })
      .catch((e: unknown) => e);
    assert.ok(shorter instanceof MigrationError && shorter.reason === 'MISMATCH');
    // The lock was given back each time: nothing is left under it.
    assert.deepEqual(await childrenOf(client, `${base}/locks/counter/leases`), []);
  });

  it('a failing op applies nothing of the call, records included', async () => {
    const base = uniquePath('failing');
    const manager = managerAt(base);
    const set = {
      id: 'broken',
      migrations: [[op.create(`${base}/fine`)], [op.delete(`${base}/missing`)]],
    };
    await client.create(base);
    await assert.rejects(manager.migrate(set), TransactionFailedError);
    assert.equal(await client.exists(`${base}/fine`), null);
    assert.deepEqual(await childrenOf(client, `${base}/meta/broken`), []);
  });

  it('refuses a bad set or options before sending anything', async () => {
    const base = uniquePath('bad-set');
    assert.throws(
      () => new MigrationManager(client, { lockPath: 'x', metaDataPath: '/m' }),
      InvalidArgumentError,
    );
    assert.throws(
      () =>
        new MigrationManager(client, {
          lockPath: '/l',
          metaDataPath: '/m',
          lockTimeout: 5,
        } as never),
      /did you mean 'lockTimeoutMs'/,
    );
    const manager = managerAt(base);
    for (const set of [
      { id: 'a/b', migrations: [] },
      { id: '', migrations: [] },
      { id: 'x', migrations: [op.create('/a')] },
    ]) {
      await assert.rejects(
        manager.migrate(set as never),
        InvalidArgumentError,
        JSON.stringify(set),
      );
    }
    assert.equal(await client.exists(base), null);
  });
});

describe('MigrationManager when the reply of its write is lost', () => {
  let server: TestingServer;
  let proxy: FaultProxy;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    proxy = await FaultProxy.start({ targetPort: server.port });
    client = await connect(proxy.connectString, {
      sessionTimeoutMs: 10_000,
      retryPolicy: new RetryNTimes({ n: 10, sleepBetweenRetriesMs: 20 }),
    });
  });
  after(async () => {
    await client.close();
    await proxy.close();
    await server.close();
  });

  it('answers from the server: the migration applied once, and said so', async () => {
    const base = uniquePath('lost-reply');
    const manager = new MigrationManager(client, {
      lockPath: `${base}/locks`,
      metaDataPath: `${base}/meta`,
    });
    const lost = proxy.loseReply({ ops: ['multi'], pathPrefix: `${base}/applied` });
    assert.equal(await manager.migrate(counterSet(base, 2)), 2);
    const reply = (await lost) as { err: number };
    assert.equal(reply.err, 0, 'the lost write was applied');
    assert.deepEqual(
      (await childrenOf(client, `${base}/applied`)).map((name) => name.slice(0, 3)),
      ['m0-', 'm1-'],
    );
    assert.equal((await childrenOf(client, `${base}/meta/counter`)).length, 2);
    assert.equal(await manager.migrate(counterSet(base, 2)), 0);
  });
});
