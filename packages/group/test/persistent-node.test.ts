import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  InvalidArgumentError,
  isNoNode,
  MAX_NODE_DATA_BYTES,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { PathChildrenCache, RecipeState, StartMode } from '@zkrecipes/caches';
import {
  FaultProxy,
  killSession,
  RawZooKeeperSession,
  TestingServer,
  uniquePath,
  waitFor,
} from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import { PersistentNode } from '../src/index.js';
import { hex } from './helpers.js';

/** Whose ephemeral the node is (0x0 for a persistent node), or 'missing'. */
async function ownerOf(client: FrameworkClient, path: string): Promise<string> {
  const stat = await client.exists(path);
  return stat === null ? 'missing' : hex(stat.ephemeralOwner);
}

describe('PersistentNode', () => {
  let server: TestingServer;
  let checker: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    checker = await startClient(server.connectString);
  });
  after(async () => {
    await checker.close();
    await server.close();
  });

  it('EPHEMERAL: created on start with its parents, re-created when deleted, deleted by close', async () => {
    const path = `${uniquePath('pn')}/group/me`;
    const client = await startClient(server.connectString);
    try {
      const node = new PersistentNode(client, path, 'EPHEMERAL', Buffer.from('hello'));
      const created: string[] = [];
      node.on('nodeCreated', (p) => {
        created.push(p);
      });
      await node.start();
      assert.equal(await node.waitForInitialCreate({ timeoutMs: 5000 }), true);
      assert.equal(node.actualPath, path);
      assert.equal(node.getActualPath(), path); // Curator's names
      assert.equal(node.getData().toString(), 'hello');
      assert.equal((await checker.getData(path)).data.toString(), 'hello');
      assert.equal(await ownerOf(checker, path), hex(client.sessionId));

      await checker.delete(path);
      await waitFor(async () => (await checker.exists(path)) !== null, { message: 're-created' });
      await waitFor(() => created.length === 2, { message: 'two nodeCreated events' });
      assert.deepEqual(created, [path, path]);

      await node.close();
      await node.close();
      assert.equal(node.state, RecipeState.CLOSED);
      assert.equal(await checker.exists(path), null);
      assert.equal(node.actualPath, undefined);
      assert.equal(node.getActualPath(), undefined);
    } finally {
      await client.close();
    }
  });

  it('setData is written at once, survives a dropped connection, and a re-created node carries the latest data', async () => {
    const path = uniquePath('pn-data');
    await using proxy = await FaultProxy.start({ targetPort: server.port });
    const client = await startClient(proxy.connectString);
    try {
      await using node = new PersistentNode(client, path, 'PERSISTENT', Buffer.from('v1'));
      await node.start();
      await node.waitForInitialCreate({ timeoutMs: 5000 });
      await node.setData(Buffer.from('v2'));
      assert.equal((await checker.getData(path)).data.toString(), 'v2');

      const suspended = waitFor(() => client.connectionState === 'SUSPENDED', { intervalMs: 5 });
      proxy.drop();
      await suspended;
      const written = node.setData(Buffer.from('v3'));
      proxy.heal();
      await written;
      assert.equal((await checker.getData(path)).data.toString(), 'v3');
      assert.equal(node.data.toString(), 'v3');

      await checker.delete(path);
      await waitFor(async () => (await checker.exists(path)) !== null, { message: 're-created' });
      assert.equal((await checker.getData(path)).data.toString(), 'v3');
    } finally {
      await client.close();
    }
  });

  it('EPHEMERAL after killSession: the node reappears under the new session', async () => {
    const path = uniquePath('pn-session');
    await using proxy = await FaultProxy.start({ targetPort: server.port });
    const client = await startClient(proxy.connectString);
    try {
      await using node = new PersistentNode(client, path, 'EPHEMERAL');
      await node.start();
      await node.waitForInitialCreate({ timeoutMs: 5000 });
      const oldSession = hex(client.sessionId);
      assert.equal(await ownerOf(checker, path), oldSession);
      const suspended = waitFor(() => client.connectionState === 'SUSPENDED', { intervalMs: 5 });
      proxy.drop();
      await suspended;
      await killSession(client, server.connectString);
      assert.equal(await checker.exists(path), null);
      proxy.heal();
      await waitFor(
        async () => {
          const owner = await ownerOf(checker, path);
          return owner !== 'missing' && owner === hex(client.sessionId) && owner !== oldSession;
        },
        { message: 'the node owned by the new session' },
      );
    } finally {
      await client.close();
    }
  });

  it('the old-session trap: a node still held by an older session is replaced at once, atomically, and never seen missing', async () => {
    const group = await checker.create(uniquePath('pn-trap'));
    const path = `${group}/service-1`;
    // A previous run of this service: killed, its session not yet expired by the server.
    const previous = await RawZooKeeperSession.connect(server.connectString, {
      sessionTimeoutMs: 30_000,
    });
    await previous.create(path, 'old run', { mode: 'EPHEMERAL' });
    const observerClient = await startClient(server.connectString);
    const client = await startClient(server.connectString);
    try {
      await using observer = new PathChildrenCache(observerClient, group);
      const seen: string[] = [];
      observer.on('childEvent', (event) => {
        seen.push(event.type);
      });
      await observer.start(StartMode.BUILD_INITIAL_CACHE);
      await using node = new PersistentNode(client, path, 'EPHEMERAL', Buffer.from('new run'));
      await node.start();
      assert.equal(await node.waitForInitialCreate({ timeoutMs: 5000 }), true);
      assert.equal(await ownerOf(checker, path), hex(client.sessionId));
      assert.equal((await checker.getData(path)).data.toString(), 'new run');
      await waitFor(() => seen.length === 1, { message: 'the observer to see the replacement' });
      // One multi replaced it: the observer saw an update, never a removal.
      assert.deepEqual(seen, ['CHILD_UPDATED']);
      await previous.close();
      assert.equal(await ownerOf(checker, path), hex(client.sessionId));
    } finally {
      await previous.close();
      await client.close();
      await observerClient.close();
    }
  });

  it('protected EPHEMERAL_SEQUENTIAL keeps one child under the same name across a server stop that outlasts the session', async () => {
    const group = await checker.create(uniquePath('pn-seq'));
    const client = await startClient(server.connectString, { sessionTimeoutMs: 2000 });
    try {
      await using node = new PersistentNode(
        client,
        `${group}/member-`,
        'EPHEMERAL_SEQUENTIAL',
        Buffer.alloc(0),
        {
          protection: true,
        },
      );
      await node.start();
      await node.waitForInitialCreate({ timeoutMs: 5000 });
      const name = node.actualPath?.slice(group.length + 1) ?? '';
      assert.match(name, /^_c_[0-9a-f-]{36}-member-\d{10}$/);
      const oldSession = client.sessionId;

      await server.stop();
      await waitFor(() => client.connectionState === 'LOST', { message: 'LOST' });
      await server.restart();
      // The old session came back with the server's data and its node with it, until the
      // server expires it: the node must be replaced, not duplicated, and keep its name.
      let most = 0;
      await waitFor(
        async () => {
          const children = await checker.getChildren(group);
          most = Math.max(most, children.length);
          return (
            client.sessionId !== oldSession &&
            children.length === 1 &&
            (await ownerOf(checker, `${group}/${name}`)) === hex(client.sessionId)
          );
        },
        { message: 'the node owned by the new session', intervalMs: 5 },
      );
      // And it outlives the old session's expiry on the server.
      await waitFor(async () => !(await server.fourLetter('dump')).includes(hex(oldSession)), {
        message: 'the old session to expire',
      });
      assert.deepEqual(await checker.getChildren(group), [name]);
      assert.equal(await ownerOf(checker, `${group}/${name}`), hex(client.sessionId));
      assert.equal(most, 1);
      assert.equal(node.actualPath, `${group}/${name}`);
    } finally {
      await client.close();
    }
  });

  it('two live instances claiming one path: replaced once each, then no ping-pong; the survivor takes over when the holder closes', async () => {
    const path = uniquePath('pn-twins');
    const clientA = await startClient(server.connectString);
    const clientB = await startClient(server.connectString);
    try {
      const a = new PersistentNode(clientA, path, 'EPHEMERAL', Buffer.from('A'));
      await a.start();
      await a.waitForInitialCreate({ timeoutMs: 5000 });
      await using b = new PersistentNode(clientB, path, 'EPHEMERAL', Buffer.from('B'));
      await b.start();
      await b.waitForInitialCreate({ timeoutMs: 5000 });
      // B replaced A's node (first foreign node in its session), A replaced it back (same
      // rule), and B, having used its one replacement, now waits.
      await waitFor(async () => (await ownerOf(checker, path)) === hex(clientA.sessionId), {
        message: 'A to hold the node',
      });
      const version = (await checker.exists(path))?.czxid;
      await checker.create(`${path}-barrier`);
      await checker.delete(`${path}-barrier`);
      assert.equal((await checker.exists(path))?.czxid, version);

      await a.close();
      await waitFor(async () => (await ownerOf(checker, path)) === hex(clientB.sessionId), {
        message: 'B to take over',
      });
      assert.equal((await checker.getData(path)).data.toString(), 'B');
    } finally {
      await clientA.close();
      await clientB.close();
    }
  });

  it('data over the 1 MB node limit: the constructor throws and setData rejects with InvalidArgumentError before anything is sent; the kept data and the node stay as they were', async () => {
    const path = uniquePath('pn-big');
    const tooBig = [Buffer.alloc(MAX_NODE_DATA_BYTES + 1), Buffer.alloc(2 * 1024 * 1024)];
    for (const data of tooBig) {
      assert.throws(() => new PersistentNode(checker, path, 'EPHEMERAL', data), /limit is/);
    }
    const node = new PersistentNode(checker, path, 'EPHEMERAL', Buffer.from('small'));
    try {
      await node.start();
      assert.equal(await node.waitForInitialCreate({ timeoutMs: 10_000 }), true);
      const before = await checker.getData(path);
      for (const data of tooBig) {
        await assert.rejects(node.setData(data), InvalidArgumentError);
        assert.equal(node.data.toString(), 'small');
      }
      await assert.rejects(node.setData('text' as never), InvalidArgumentError);
      const after = await checker.getData(path);
      assert.equal(after.stat.mzxid, before.stat.mzxid, 'nothing was written');
      assert.equal(after.data.toString(), 'small');
      // The limit itself is fine, and the node keeps working.
      await node.setData(Buffer.alloc(MAX_NODE_DATA_BYTES, 1));
      assert.equal((await checker.getData(path)).data.length, MAX_NODE_DATA_BYTES);
    } finally {
      await node.close();
    }
  });

  it('deleteOnClose: false leaves the node on close (CONTAINER mode, as PersistentTtlNode keeps it)', async () => {
    const path = `${uniquePath('pn-keep')}/box`;
    const node = new PersistentNode(checker, path, 'CONTAINER', Buffer.from('c'), {
      deleteOnClose: false,
    });
    await node.start();
    assert.equal(await node.waitForInitialCreate({ timeoutMs: 5000 }), true);
    await node.close();
    assert.equal((await checker.getData(path)).data.toString(), 'c');
    assert.throws(
      () =>
        new PersistentNode(checker, path, 'CONTAINER', undefined, { deleteOnClose: 1 as never }),
      /deleteOnClose must be/,
    );
  });

  it('lifecycle: waitForInitialCreate false on timeout (no parent, createParents: false; the failure on errors and client.unhandledErrors), start twice rejects, close before start', async () => {
    const client = await startClient(server.connectString);
    try {
      const orphan = new PersistentNode(
        client,
        `${uniquePath('pn-none')}/x`,
        'PERSISTENT',
        Buffer.alloc(0),
        {
          createParents: false,
        },
      );
      const errors: unknown[] = [];
      orphan.errors.subscribe(({ error }) => errors.push(error));
      const unhandled: unknown[] = [];
      client.unhandledErrors.subscribe(({ error }) => unhandled.push(error));
      await assert.rejects(orphan.waitForInitialCreate(), /before start/);
      await orphan.start();
      await assert.rejects(orphan.start(), /start\(\) on a STARTED PersistentNode/);
      assert.equal(await orphan.waitForInitialCreate({ timeoutMs: 200 }), false);
      await waitFor(() => errors.length > 0, { message: 'the NO_NODE report' });
      assert.ok(isNoNode(errors[0]), String(errors[0]));
      assert.equal(unhandled[0], errors[0]);
      await orphan.close();
      assert.equal(await orphan.waitForInitialCreate(), false);
      await assert.rejects(
        orphan.setData(Buffer.from('x')),
        (e: Error) => e.name === 'ClosedError',
      );

      const never = new PersistentNode(client, uniquePath('pn-never'), 'EPHEMERAL');
      await never.close();
      assert.equal(never.state, RecipeState.CLOSED);
      assert.throws(
        () => new PersistentNode(client, '/x', 'CONTAINR' as 'EPHEMERAL'),
        /unknown create mode/,
      );
      assert.throws(
        () => new PersistentNode(client, '/x', 'PERSISTENT_WITH_TTL'),
        /use PersistentTtlNode/,
      );
    } finally {
      await client.close();
    }
  });
});
