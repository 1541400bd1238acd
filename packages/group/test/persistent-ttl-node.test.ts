import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { firstValueFrom } from 'rxjs';
import { filter } from 'rxjs/operators';
import {
  isInvalidArgument,
  isNoNode,
  isUnimplemented,
  op,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { PathChildrenCache, RecipeState, StartMode } from '@zkrecipes/caches';
import { TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import { PersistentTtlNode } from '../src/index.js';

const TTL_MS = 400;

/** Resolves once the child at `path` has been written `count` more times (its mzxid moved). */
async function touches(client: FrameworkClient, path: string, count: number): Promise<void> {
  const seen = new Set<bigint>();
  await waitFor(
    async () => {
      const stat = await client.exists(path);
      if (stat !== null) seen.add(stat.mzxid);
      return seen.size > count;
    },
    { timeoutMs: timing.ms(20_000), intervalMs: 20, message: `${count} touches of ${path}` },
  );
}

async function gone(client: FrameworkClient, path: string): Promise<void> {
  await waitFor(async () => (await client.exists(path)) === null, {
    timeoutMs: timing.ms(20_000),
    message: `${path} deleted by the server`,
  });
}

describe('PersistentTtlNode (Curator TestPersistentTtlNode)', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start({
      extendedTypesEnabled: true,
      containerCheckIntervalMs: 50,
    });
    client = await startClient(server.connectString);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('testBasic: the node outlives many TTLs while kept; close() deletes nothing; then it goes by its TTL', async () => {
    const path = uniquePath('ttl-basic');
    const node = new PersistentTtlNode(client, path, TTL_MS, { data: Buffer.from('d') });
    await node.start();
    assert.equal(await node.waitForInitialCreate({ timeoutMs: timing.ms(5_000) }), true);
    const startMs = performance.now();
    await touches(client, `${path}/touch`, 6);
    assert.ok(performance.now() - startMs > 2 * TTL_MS, 'several TTLs passed');
    assert.equal((await client.getData(path)).data.toString(), 'd');
    const touch = await client.exists(`${path}/touch`);
    assert.equal(touch?.ephemeralOwner, 0n);
    await node.close();
    await node.close(); // twice is a no-op
    assert.equal(node.state, RecipeState.CLOSED);
    await assert.rejects(node.start(), { code: 'ILLEGAL_STATE' });
    assert.notEqual(await client.exists(path), null, 'close() leaves the node');
    await gone(client, `${path}/touch`);
    await gone(client, path);
  });

  it('testForcedDeleteOfTouchNode: a deleted touch child comes back and the node stays', async () => {
    const path = uniquePath('ttl-forced');
    await using node = new PersistentTtlNode(client, path, TTL_MS);
    await node.start();
    assert.equal(await node.waitForInitialCreate({ timeoutMs: timing.ms(5_000) }), true);
    for (let i = 0; i < 5; i++) {
      await waitFor(async () => (await client.exists(`${path}/touch`)) !== null, {
        timeoutMs: timing.ms(10_000),
        message: 'the touch child is (re-)created',
      });
      await client.delete(`${path}/touch`, { quietly: true });
    }
    // The emptied container may be reaped: the PersistentNode makes it again, then a touch.
    await waitFor(async () => (await client.exists(`${path}/touch`)) !== null, {
      timeoutMs: timing.ms(10_000),
      message: 'node and child back',
    });
    assert.notEqual(await client.exists(path), null);
  });

  it('testRecreationOfParentNodeWithParentCreationOff: createParents false, parent deleted: the node is not made again', async () => {
    const root = uniquePath('ttl-parents');
    const nodePath = `${root}/one/two`;
    await client.create(`${root}/one`, { createParents: true });
    await using node = new PersistentTtlNode(client, nodePath, TTL_MS, {
      data: Buffer.from('hey'),
      createParents: false,
    });
    const failedRecreate = firstValueFrom(node.errors.pipe(filter((e) => isNoNode(e.error))));
    failedRecreate.catch(() => undefined); // awaited below; not unhandled if the test fails first
    await node.start();
    assert.equal(await node.waitForInitialCreate({ timeoutMs: timing.ms(5_000) }), true);
    await touches(client, `${nodePath}/touch`, 1);
    // One multi: the keeper re-creates a deleted node at once, so a node-by-node delete of the
    // subtree would race it.
    await client.transaction([
      op.delete(`${nodePath}/touch`),
      op.delete(nodePath),
      op.delete(`${root}/one`),
    ]);
    // The keeper tried to make the node again and could not (no parent, no createParents).
    await failedRecreate;
    assert.equal(await client.exists(nodePath), null);
    assert.equal(await client.exists(`${nodePath}/touch`), null);
    assert.equal(node.data.toString(), 'hey');
  });

  it('testEventsOnParent: touches give no event on the node; a write to it gives exactly one', async () => {
    const root = await client.create(uniquePath('ttl-events'));
    const path = `${root}/test`;
    await using node = new PersistentTtlNode(client, path, TTL_MS);
    await using cache = new PathChildrenCache(client, root);
    const updates: string[] = [];
    cache.on('childEvent', (event) => {
      if (event.type === 'CHILD_UPDATED') updates.push(event.data.path);
    });
    await node.start();
    assert.equal(await node.waitForInitialCreate({ timeoutMs: timing.ms(5_000) }), true);
    await cache.start(StartMode.BUILD_INITIAL_CACHE);
    await touches(client, `${path}/touch`, 4);
    assert.deepEqual(updates, [], 'touching the child is no change of the node');
    await client.setData(path, Buffer.from('changed'));
    await waitFor(() => updates.length === 1, { timeoutMs: timing.ms(5_000) });
    await touches(client, `${path}/touch`, 2);
    assert.deepEqual(updates, [path]);
  });

  it('setData writes the node; the data getter follows', async () => {
    const path = uniquePath('ttl-data');
    await using node = new PersistentTtlNode(client, path, TTL_MS, { data: Buffer.from('a') });
    await node.start();
    await node.waitForInitialCreate({ timeoutMs: timing.ms(5_000) });
    await node.setData(Buffer.from('b'));
    assert.equal(node.data.toString(), 'b');
    assert.equal((await client.getData(path)).data.toString(), 'b');
  });

  it('bad arguments are InvalidArgumentError before anything is sent; start() twice rejects', async () => {
    const path = uniquePath('ttl-misuse');
    for (const ttl of [0, -5, 1.5, 0x100_0000_0000, Number.NaN]) {
      assert.throws(() => new PersistentTtlNode(client, path, ttl), isInvalidArgument);
    }
    assert.throws(() => new PersistentTtlNode(client, 'relative', 1000), isInvalidArgument);
    assert.throws(
      () => new PersistentTtlNode(client, path, 1000, { childNodeName: 'a/b' }),
      isInvalidArgument,
    );
    assert.throws(
      () => new PersistentTtlNode(client, path, 1000, { touchScheduleFactor: 0 }),
      isInvalidArgument,
    );
    assert.throws(
      () =>
        new PersistentTtlNode(client, path, 1000, { createParents: 'yes' as unknown as boolean }),
      isInvalidArgument,
    );
    assert.equal(await client.exists(path), null);
    await using node = new PersistentTtlNode(client, path, 1000);
    await node.start();
    await assert.rejects(node.start(), { code: 'ILLEGAL_STATE' });
  });
});

describe('PersistentTtlNode on a server without extended types', () => {
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

  it('a touch fails with an UnimplementedError naming zookeeper.extendedTypesEnabled, on errors', async () => {
    const path = uniquePath('ttl-disabled');
    await using node = new PersistentTtlNode(client, path, 200);
    const failed = firstValueFrom(node.errors.pipe(filter((e) => isUnimplemented(e.error))));
    await node.start();
    const { error } = await failed;
    assert.match((error as Error).message, /zookeeper\.extendedTypesEnabled=true/);
    assert.equal(await client.exists(`${path}/touch`), null);
  });
});

describe('PersistentTtlNode with the server stopped', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start({ extendedTypesEnabled: true });
  });
  after(() => server.close());

  it('waitForInitialCreate settles on its timeout, close() is prompt, and the node is made once the server is back', async () => {
    const client = await startClient(server.connectString);
    const path = uniquePath('ttl-stopped');
    try {
      await server.stop();
      await waitFor(() => !client.isConnected, { timeoutMs: timing.ms(10_000) });
      const node = new PersistentTtlNode(client, path, 200);
      await node.start();
      const startMs = performance.now();
      assert.equal(await node.waitForInitialCreate({ timeoutMs: 500 }), false);
      const waitedMs = performance.now() - startMs;
      assert.ok(waitedMs >= 490 && waitedMs < timing.ms(1_500), `waited ${waitedMs} ms`);
      // A few touch periods pass with no connection: nothing queues up behind them.
      const closeStartMs = performance.now();
      await node.close();
      assert.ok(performance.now() - closeStartMs < 500, 'close() is prompt');
      await server.restart();
      await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) });
      await using again = new PersistentTtlNode(client, path, 200);
      await again.start();
      assert.equal(await again.waitForInitialCreate({ timeoutMs: timing.ms(10_000) }), true);
    } finally {
      await client.close();
    }
  });
});
