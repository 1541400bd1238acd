import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { op } from '../../src/client/transaction-op.js';
import { TransactionFailedError } from '../../src/errors/transaction-failed-error.js';
import { createFramework } from '../../src/create-framework.js';
import { isUnimplemented } from '../../src/errors/predicates.js';
import { UnimplementedError } from '../../src/errors/zookeeper-error-classes.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { RetryNTimes } from '../../src/retry/retry-n-times.js';
import { ConnectionState } from '../../src/state/connection-state.js';
import { quickClient } from './fixtures/quick-client.js';

/** How often the test server looks for empty containers and expired TTL nodes. */
const CHECK_INTERVAL_MS = 100;

async function gone(client: FrameworkClient, path: string, message: string): Promise<void> {
  await waitFor(async () => (await client.exists(path)) === null, {
    timeoutMs: timing.ms(10_000),
    message,
  });
}

describe('container, TTL, sync, getEphemerals, getAllChildrenNumber (real server)', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  let other: FrameworkClient;
  before(async () => {
    server = await TestingServer.start({
      extendedTypesEnabled: true,
      containerCheckIntervalMs: CHECK_INTERVAL_MS,
    });
    client = await quickClient(server.connectString);
    other = await quickClient(server.connectString);
  });
  after(async () => {
    await client.close();
    await other.close();
    await server.close();
  });

  it('a CONTAINER is reaped once its last child goes; its Stat reads ephemeralOwner 0', async () => {
    const root = uniquePath('container');
    await client.create(root);
    const created = await client.create(`${root}/box`, { mode: 'CONTAINER', stat: true });
    assert.equal(created.path, `${root}/box`);
    assert.equal(created.stat.ephemeralOwner, 0n);
    await client.create(`${root}/box/item`);
    await client.delete(`${root}/box/item`);
    await gone(client, `${root}/box`, 'the empty container was reaped');
    assert.notEqual(await client.exists(root), null, 'the PERSISTENT parent stays');
  });

  it("TestFramework.testCreateParentContainers: createParents' parents are containers, reaped level by level", async () => {
    const root = uniquePath('parents');
    await client.create(`${root}/one/two/three`, {
      data: Buffer.from('foo'),
      createParents: true,
    });
    assert.equal((await client.getData(`${root}/one/two/three`)).data.toString(), 'foo');
    await client.delete(`${root}/one/two/three`);
    await gone(client, `${root}/one/two`, '/one/two reaped');
    await gone(client, `${root}/one`, '/one reaped after /one/two went');
    await gone(client, root, 'the top parent is a container too');
  });

  it('useContainerParents: false (dontUseContainerParents) makes PERSISTENT parents that stay', async () => {
    const root = uniquePath('persistent-parents');
    const plain = createFramework({
      connectString: server.connectString,
      useContainerParents: false,
      logger: silentLogger,
    });
    await plain.start();
    try {
      await client.create(root);
      await plain.create(`${root}/kept/leaf`, { createParents: true });
      await client.create(`${root}/reaped/leaf`, { createParents: true });
      // The persistent parent empties first; once the container (emptied after it) is reaped,
      // a container check has run since both emptied.
      await client.delete(`${root}/kept/leaf`);
      await client.delete(`${root}/reaped/leaf`);
      await gone(client, `${root}/reaped`, 'the container parent was reaped');
      assert.notEqual(await client.exists(`${root}/kept`), null, 'the PERSISTENT parent stays');
    } finally {
      await plain.close();
    }
  });

  it('PERSISTENT_WITH_TTL is deleted once its TTL passes without a write; sequential TTL nodes get a suffix', async () => {
    const root = uniquePath('ttl');
    await client.create(root);
    const ttl = await client.create(`${root}/short`, {
      mode: 'PERSISTENT_WITH_TTL',
      ttlMs: 300,
      data: Buffer.from('t'),
      stat: true,
    });
    assert.equal(ttl.stat.ephemeralOwner, 0n);
    const sequential = await client.create(`${root}/seq-`, {
      mode: 'PERSISTENT_SEQUENTIAL_WITH_TTL',
      ttlMs: 300,
    });
    assert.match(sequential, /\/seq-\d{10}$/);
    const long = await client.create(`${root}/long`, {
      mode: 'PERSISTENT_WITH_TTL',
      ttlMs: 600_000,
    });
    await gone(client, `${root}/short`, 'the TTL node expired');
    await gone(client, sequential, 'the sequential TTL node expired');
    assert.notEqual(await client.exists(long), null, 'a node within its TTL stays');
  });

  it('sync resolves, after which a read sees a write made by another client', async () => {
    const path = uniquePath('sync');
    await other.create(path, { data: Buffer.from('v1') });
    await client.sync(path);
    assert.equal((await client.getData(path)).data.toString(), 'v1');
    await client.sync('/');
  });

  it("getEphemerals lists this session's ephemerals by string prefix, not other sessions'", async () => {
    const root = uniquePath('ephemerals');
    await client.create(root);
    await client.create(`${root}/mine-a`, { mode: 'EPHEMERAL' });
    const seq = await client.create(`${root}/mine-`, { mode: 'EPHEMERAL_SEQUENTIAL' });
    await other.create(`${root}/theirs`, { mode: 'EPHEMERAL' });
    assert.deepEqual((await client.getEphemerals(root)).sort(), [`${root}/mine-a`, seq].sort());
    assert.deepEqual(await client.getEphemerals(`${root}/mine-a`), [`${root}/mine-a`]);
    assert.ok((await client.getEphemerals()).includes(`${root}/mine-a`), "'/' lists all");
    assert.deepEqual(await other.getEphemerals(root), [`${root}/theirs`]);
  });

  it('getEphemerals in a namespace answers namespace paths and leaves out look-alikes outside it', async () => {
    const ns = uniquePath('ns').slice(1);
    const view = client.usingNamespace(ns);
    await view.create('/e', { mode: 'EPHEMERAL', createParents: true });
    // '/<ns>x' starts with the namespace's server path '/<ns>' but is not inside it.
    await client.create(`/${ns}x`, { mode: 'EPHEMERAL' });
    assert.deepEqual(await view.getEphemerals(), ['/e']);
    assert.deepEqual(await view.getEphemerals('/e'), ['/e']);
  });

  it('getAllChildrenNumber counts every node below the path, at any depth', async () => {
    const root = uniquePath('count');
    await client.create(`${root}/a/b/c`, { createParents: true });
    await client.create(`${root}/a/d`);
    await client.create(`${root}/e`);
    assert.equal(await client.getAllChildrenNumber(root), 5);
    assert.equal(await client.getAllChildrenNumber(`${root}/e`), 0);
  });

  it('a transaction creates CONTAINER and TTL nodes next to the classic ops, all or nothing', async () => {
    const root = uniquePath('multi');
    await client.create(root, { data: Buffer.from('v0') });
    const results = await client.transaction([
      op.create(`${root}/box`, { mode: 'CONTAINER' }),
      op.create(`${root}/box/item`),
      op.create(`${root}/ttl`, { mode: 'PERSISTENT_WITH_TTL', ttlMs: 60_000 }),
      op.create(`${root}/seq-`, { mode: 'PERSISTENT_SEQUENTIAL_WITH_TTL', ttlMs: 300 }),
      op.check(root, { version: 0 }),
      op.setData(root, Buffer.from('v1'), { version: 0 }),
      op.delete(`${root}/box/item`),
    ]);
    assert.deepEqual(
      results.map((r) => `${r.type} ${r.path}`),
      [
        `create ${root}/box`,
        `create ${root}/box/item`,
        `create ${root}/ttl`,
        `create ${results[3]?.path ?? ''}`,
        `check ${root}`,
        `setData ${root}`,
        `delete ${root}/box/item`,
      ],
    );
    assert.match(results[3]?.path ?? '', /\/seq-\d{10}$/);
    const written = results[5];
    assert.equal(written?.type === 'setData' ? written.stat.version : undefined, 1);
    // The container had a child (made and deleted in the multi) and is empty: it is reaped.
    await gone(client, `${root}/box`, 'the container made in a multi');
    await gone(client, results[3]?.path ?? '', 'the TTL node made in a multi');
    assert.notEqual(await client.exists(`${root}/ttl`), null);

    await assert.rejects(
      client.transaction([
        op.create(`${root}/box2`, { mode: 'CONTAINER' }),
        op.check(root, { version: 0 }),
      ]),
      (error: unknown) => {
        assert.ok(error instanceof TransactionFailedError);
        assert.equal(error.failedOpIndex, 1);
        assert.equal(error.code, 'BAD_VERSION');
        return true;
      },
    );
    assert.equal(await client.exists(`${root}/box2`), null, 'nothing applied');
  });

  it('the new requests work under a chroot in the connect string', async () => {
    const chroot = uniquePath('chroot');
    await client.create(`${chroot}/x`, { createParents: true });
    const rooted = await quickClient(`${server.connectString}${chroot}`);
    try {
      await rooted.create('/x/e', { mode: 'EPHEMERAL' });
      await rooted.create('/c', { mode: 'CONTAINER' });
      const ttl = await rooted.create('/t', { mode: 'PERSISTENT_WITH_TTL', ttlMs: 60_000 });
      assert.equal(ttl, '/t');
      assert.deepEqual(await rooted.getEphemerals(), ['/x/e']);
      assert.equal(await rooted.getAllChildrenNumber('/'), 4);
      const [made] = await rooted.transaction([op.create('/m', { mode: 'CONTAINER' })]);
      assert.equal(made?.path, '/m');
      assert.notEqual(await client.exists(`${chroot}/m`), null);
      await rooted.sync('/x');
      assert.notEqual(await client.exists(`${chroot}/c`), null);
    } finally {
      await rooted.close();
    }
  });
});

describe('TTL nodes on a server without zookeeper.extendedTypesEnabled', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    client = await quickClient(server.connectString);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('a TTL create rejects with an UnimplementedError naming the setting; containers still work', async () => {
    const path = uniquePath('no-ttl');
    for (const mode of ['PERSISTENT_WITH_TTL', 'PERSISTENT_SEQUENTIAL_WITH_TTL'] as const) {
      await assert.rejects(client.create(path, { mode, ttlMs: 1_000 }), (error: unknown) => {
        assert.ok(error instanceof UnimplementedError);
        assert.ok(isUnimplemented(error));
        assert.equal(error.zkCode, -6);
        assert.match(error.message, /zookeeper\.extendedTypesEnabled=true/);
        return true;
      });
    }
    assert.equal(await client.exists(path), null);
    await assert.rejects(
      client.transaction([
        op.create(`${path}-c`, { mode: 'CONTAINER' }),
        op.create(`${path}-t`, { mode: 'PERSISTENT_WITH_TTL', ttlMs: 1_000 }),
      ]),
      (error: unknown) => {
        assert.ok(error instanceof UnimplementedError, String(error));
        assert.match(error.message, /zookeeper\.extendedTypesEnabled=true/);
        return true;
      },
    );
    assert.equal(await client.exists(`${path}-c`), null, 'nothing of the multi applied');
    assert.equal(await client.create(path, { mode: 'CONTAINER' }), path);
  });
});

describe('the new requests with the server stopped', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start({ extendedTypesEnabled: true });
  });
  after(() => server.close());

  it('sync, getEphemerals, getAllChildrenNumber and container/TTL creates settle on their 1 s signal', async () => {
    const client = createFramework({
      connectString: server.connectString,
      sessionTimeoutMs: 4_000,
      retryPolicy: new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 1_000 }),
      logger: silentLogger,
    });
    await client.start();
    assert.equal(await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) }), true);
    try {
      await server.stop();
      await waitFor(() => client.connectionState === ConnectionState.SUSPENDED, {
        timeoutMs: timing.ms(5_000),
        message: 'SUSPENDED after the server stopped',
      });
      const calls: [string, (signal: AbortSignal) => Promise<unknown>][] = [
        ['sync', (signal) => client.sync('/', { signal })],
        ['getEphemerals', (signal) => client.getEphemerals('/', { signal })],
        ['getAllChildrenNumber', (signal) => client.getAllChildrenNumber('/', { signal })],
        ['container', (signal) => client.create('/c', { mode: 'CONTAINER', signal })],
        [
          'ttl',
          (signal) => client.create('/t', { mode: 'PERSISTENT_WITH_TTL', ttlMs: 1_000, signal }),
        ],
      ];
      const outcomes = await Promise.all(
        calls.map(async ([name, call]) => {
          const startMs = performance.now();
          const error = await call(AbortSignal.timeout(1_000)).then(
            () => undefined,
            (e: unknown) => e,
          );
          return { name, error, tookMs: performance.now() - startMs };
        }),
      );
      for (const { name, error, tookMs } of outcomes) {
        assert.equal((error as Error | undefined)?.name, 'TimeoutError', name);
        assert.ok(tookMs >= 990 && tookMs < timing.ms(2_000), `${name} settled after ${tookMs} ms`);
      }
    } finally {
      const startMs = performance.now();
      await client.close();
      assert.ok(performance.now() - startMs < 500, 'close() is prompt');
      await server.restart();
    }
  });

  it('server paused (hung, SIGSTOP) with the requests in flight: each settles on its 1 s signal', async () => {
    const client = createFramework({
      connectString: server.connectString,
      sessionTimeoutMs: 10_000,
      retryPolicy: new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 1_000 }),
      logger: silentLogger,
    });
    await client.start();
    assert.equal(await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) }), true);
    await server.pause();
    try {
      const signal = AbortSignal.timeout(1_000);
      const startMs = performance.now();
      const outcomes = await Promise.allSettled([
        client.sync('/', { signal }),
        client.getEphemerals('/', { signal }),
        client.getAllChildrenNumber('/', { signal }),
        client.create('/paused-c', { mode: 'CONTAINER', signal }),
        client.transaction(
          [op.create('/paused-t', { mode: 'PERSISTENT_WITH_TTL', ttlMs: 1_000 })],
          {
            signal,
          },
        ),
      ]);
      const tookMs = performance.now() - startMs;
      for (const outcome of outcomes) {
        assert.equal(outcome.status, 'rejected');
        assert.equal((outcome.reason as Error).name, 'TimeoutError');
      }
      assert.ok(tookMs >= 990 && tookMs < timing.ms(2_000), `settled after ${tookMs} ms`);
    } finally {
      server.resume();
      await client.close();
    }
  });
});
