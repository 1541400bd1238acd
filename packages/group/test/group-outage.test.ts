// Group recipes while ZooKeeper is unreachable: close() ends on time, waits settle, and what a
// close could not delete in the outage is gone once the server is back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ClosedError, RetryNTimes, type FrameworkClient } from '@zkrecipes/framework';
import {
  FaultProxy,
  freePort,
  TestingServer,
  timing,
  uniquePath,
  waitFor,
} from '@zkrecipes/testing';
import { elapsedMs, startClient, startedClient } from '@zkrecipes/test-support';
import { GroupMember, PersistentNode, PersistentTtlNode } from '../src/index.js';

const SESSION_MS = 4000;

/** A started client that is not waited for (nothing may answer at `connectString`). */
function clientOf(connectString: string): Promise<FrameworkClient> {
  return startedClient(connectString, {
    sessionTimeoutMs: SESSION_MS,
    retryPolicy: new RetryNTimes({ n: 20, sleepBetweenRetriesMs: 100 }),
  });
}

/**
 * close() right after start(): a member and a PERSISTENT node, whose creates are out (or
 * waiting for a connection) when close() comes. Resolves the paths of their nodes.
 */
async function assertPromptCloseAfterStart(
  client: FrameworkClient,
  label: string,
): Promise<string[]> {
  const groupPath = uniquePath('outage-group');
  const nodePath = uniquePath('outage-node');
  const member = new GroupMember(client, groupPath, 'm', Buffer.from('x'));
  const node = new PersistentNode(client, nodePath, 'PERSISTENT');
  const connected = client.isConnected;
  await member.start();
  await node.start();
  const created = node.waitForInitialCreate();
  const written = node.setData(Buffer.from('y')).then(
    () => 'written',
    (error: unknown) => (error instanceof ClosedError ? 'closed' : error),
  );
  for (const [name, recipe] of Object.entries({ member, node })) {
    const tookMs = await elapsedMs(() => recipe.close());
    assert.ok(tookMs < timing.ms(500), `${label}: ${name}.close() took ${tookMs} ms`);
  }
  // Connected, the create and the write may well have been answered while the member closed.
  if (!connected) assert.equal(await created, false);
  const outcome = String(await written);
  const expected = connected ? ['closed', 'written'] : ['closed'];
  assert.ok(expected.includes(outcome), `${label}: setData ended with ${outcome}`);
  return [`${groupPath}/m`, nodePath];
}

describe('group recipes with the server stopped', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start({ extendedTypesEnabled: true });
  });
  after(() => server.close());

  it('server stopped under a connected client: GroupMember.close and PersistentNode.close (EPHEMERAL, protected EPHEMERAL_SEQUENTIAL, PERSISTENT) each resolve in under 1 s, a pending setData rejects with ClosedError; after the restart every node they owned is gone within the session timeout', async (t) => {
    const group = uniquePath('outage-group');
    const base = uniquePath('outage-node');
    const client = await startClient(server.connectString, { sessionTimeoutMs: SESSION_MS });
    assert.equal(client.isConnected, true);
    const member = new GroupMember(client, group, 'm1', Buffer.from('one'));
    const nodes = [
      new PersistentNode(client, `${base}/ephemeral`, 'EPHEMERAL'),
      new PersistentNode(client, `${base}/seq-`, 'EPHEMERAL_SEQUENTIAL', undefined, {
        protection: true,
      }),
      new PersistentNode(client, `${base}/persistent`, 'PERSISTENT'),
    ];
    let observer: FrameworkClient | undefined;
    try {
      await member.start();
      for (const node of nodes) await node.start();
      assert.equal(await member.waitForInitialCreate({ timeoutMs: 10_000 }), true);
      for (const node of nodes) assert.equal(await node.waitForInitialCreate(), true);
      await server.stop();
      await waitFor(() => !client.isConnected, { message: 'the client sees the outage' });
      const pending = assert.rejects(nodes[0]!.setData(Buffer.from('never written')), ClosedError);
      const closeMs: number[] = [];
      for (const recipe of [member, ...nodes]) {
        const tookMs = await elapsedMs(() => recipe.close());
        closeMs.push(Math.round(tookMs));
        assert.ok(tookMs < timing.ms(1000), `close() took ${tookMs} ms`);
      }
      t.diagnostic(`close() with the server stopped: ${closeMs.join(', ')} ms`);
      await pending;
      await server.restart();
      const restartedAt = performance.now();
      observer = await startClient(server.connectString);
      const checker = observer;
      await waitFor(
        async () => {
          const left = [
            ...(await checker.getChildren(group)),
            ...(await checker.getChildren(base)),
          ];
          return left.length === 0;
        },
        { timeoutMs: SESSION_MS + 1000, message: 'every node of the closed recipes is gone' },
      );
      const goneMs = performance.now() - restartedAt;
      t.diagnostic(`gone ${Math.round(goneMs)} ms after the restart`);
      assert.ok(goneMs < timing.ms(SESSION_MS + 1000), `gone ${goneMs} ms after the restart`);
      // Connected: close() waits for the delete, sent after a create that may have gone out.
      await waitFor(() => client.isConnected, { message: 'the client reconnects' });
      for (const path of await assertPromptCloseAfterStart(client, 'connected')) {
        assert.equal(await checker.exists(path), null, `${path} is gone when close() resolves`);
      }
    } finally {
      await Promise.all([member.close(), ...nodes.map((node) => node.close())]);
      await client.close();
      await observer?.close();
    }
  });

  it('server paused (the link still reads as connected): setData, setThisData and a TTL node setData with a signal reject with its reason on time; the data is written once the server answers', async () => {
    const base = uniquePath('paused-set');
    const client = await startClient(server.connectString, { sessionTimeoutMs: 30_000 });
    const node = new PersistentNode(client, `${base}/node`, 'EPHEMERAL', Buffer.from('one'));
    const member = new GroupMember(client, `${base}/group`, 'm1', Buffer.from('one'));
    const ttl = new PersistentTtlNode(client, `${base}/ttl`, 60_000, { data: Buffer.from('one') });
    try {
      for (const recipe of [node, member, ttl]) {
        await recipe.start();
        assert.equal(await recipe.waitForInitialCreate({ timeoutMs: 10_000 }), true);
      }
      await server.pause();
      const calls = {
        'PersistentNode.setData': () =>
          node.setData(Buffer.from('two'), { signal: AbortSignal.timeout(1000) }),
        'GroupMember.setThisData': () =>
          member.setThisData(Buffer.from('two'), { signal: AbortSignal.timeout(1000) }),
        'PersistentTtlNode.setData': () =>
          ttl.setData(Buffer.from('two'), { signal: AbortSignal.timeout(1000) }),
      };
      const outcomes = await Promise.all(
        Object.entries(calls).map(async ([label, call]) => {
          const started = performance.now();
          const error = await call().then(
            () => undefined,
            (reason: unknown) => reason,
          );
          return { label, error, ms: performance.now() - started };
        }),
      );
      for (const { label, error, ms } of outcomes) {
        assert.ok(
          error instanceof DOMException && error.name === 'TimeoutError',
          `${label}: ${String(error)}`,
        );
        assert.ok(ms >= 990 && ms < timing.ms(1500), `${label} settled after ${Math.round(ms)} ms`);
      }
      // An aborted signal fails the call before anything changes.
      await assert.rejects(
        node.setData(Buffer.from('three'), { signal: AbortSignal.abort() }),
        (error: unknown) => error instanceof DOMException && error.name === 'AbortError',
      );
      server.resume();
      // The abort ended the waits, not the writes.
      for (const path of [`${base}/node`, `${base}/group/m1`, `${base}/ttl`]) {
        await waitFor(async () => (await client.getData(path)).data.toString() === 'two', {
          message: `${path} holds the data set during the pause`,
          timeoutMs: 30_000,
        });
      }
    } finally {
      if (server.paused) server.resume();
      await Promise.all([node.close(), member.close(), ttl.close()]);
      await client.close();
    }
  });

  it('close() right after start() with nothing listening, with a host that accepts but never answers (mid-handshake) and with a stopped server resolves promptly; setData and waitForInitialCreate settle', async () => {
    const refused = await clientOf(`127.0.0.1:${await freePort()}`);
    const proxy = await FaultProxy.start({ targetPort: server.port });
    proxy.blackhole();
    const blackholed = await clientOf(proxy.connectString);
    try {
      await assertPromptCloseAfterStart(refused, 'nothing listening');
      await assertPromptCloseAfterStart(blackholed, 'blackholed');
    } finally {
      await refused.close();
      await blackholed.close();
      await proxy.close();
    }
    await server.stop();
    const stopped = await clientOf(server.connectString);
    try {
      await assertPromptCloseAfterStart(stopped, 'server stopped');
    } finally {
      await stopped.close();
      await server.restart();
    }
  });
});
