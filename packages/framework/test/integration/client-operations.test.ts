import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { killSession, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { op } from '../../src/client/transaction-op.js';
import { TransactionFailedError } from '../../src/errors/transaction-failed-error.js';
import {
  isInvalidArgument,
  isNodeExists,
  isNoNode,
  isWatchBudgetExceeded,
} from '../../src/errors/predicates.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { RetryOneTime } from '../../src/retry/retry-one-time.js';
import type { WatchedEvent } from '../../src/zk/zookeeper-types.js';

describe('FrameworkClient operations on a real server', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    client = createFramework({
      connectString: server.connectString,
      sessionTimeoutMs: 4000,
      logger: silentLogger,
    });
    await client.start();
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('creates in all four modes; sequential names carry a 10-digit suffix; ephemerals die with the session', async () => {
    const base = uniquePath('modes');
    await client.create(base);
    const persistent = await client.create(`${base}/p`, { data: Buffer.from('x') });
    const sequential = await client.create(`${base}/s-`, { mode: 'PERSISTENT_SEQUENTIAL' });
    const ephemeral = await client.create(`${base}/e`, { mode: 'EPHEMERAL' });
    const ephSeq = await client.create(`${base}/es-`, { mode: 'EPHEMERAL_SEQUENTIAL' });
    assert.equal(persistent, `${base}/p`);
    assert.match(sequential, /\/s-\d{10}$/);
    assert.match(ephSeq, /\/es-\d{10}$/);
    // A sequential node named by its parent alone, with and without the Stat (create2).
    assert.equal(
      await client.create(`${base}/`, { mode: 'PERSISTENT_SEQUENTIAL' }),
      `${base}/0000000004`,
    );
    const bare = await client.create(`${base}/`, { mode: 'EPHEMERAL_SEQUENTIAL', stat: true });
    assert.equal(bare.path, `${base}/0000000005`);
    assert.equal((await client.getData(persistent)).data.toString(), 'x');
    assert.equal((await client.exists(ephemeral))?.ephemeralOwner, client.sessionId);
    const other = createFramework({ connectString: server.connectString, logger: silentLogger });
    await other.start();
    const otherEphemeral = await other.create(`${base}/other`, { mode: 'EPHEMERAL' });
    await other.close();
    // close() ends the session: its ephemeral is gone at once, not after the timeout.
    assert.equal(await client.exists(otherEphemeral), null);
  });

  it('createParents, orSetData, deleteChildren and quietly', async () => {
    const deep = `${uniquePath('tree')}/a/b/c`;
    await client.create(deep, { createParents: true, data: Buffer.from('1') });
    await assert.rejects(client.create(deep), (e) => isNodeExists(e));
    await client.create(deep, { orSetData: true, data: Buffer.from('2') });
    assert.equal((await client.getData(deep)).data.toString(), '2');
    const top = deep.split('/').slice(0, 2).join('/');
    await client.delete(top, { deleteChildren: true });
    assert.equal(await client.exists(top), null);
    await assert.rejects(client.delete(top), (e) => isNoNode(e));
    await client.delete(top, { quietly: true });
  });

  it('a namespace view maps paths in and out and shares the connection', async () => {
    const ns = uniquePath('ns').slice(1);
    const view = client.usingNamespace(ns);
    const created = await view.create('/x/y', { createParents: true });
    assert.equal(created, '/x/y');
    assert.deepEqual(await client.getChildren(`/${ns}/x`), ['y']);
    assert.deepEqual(await view.getChildren('/x'), ['y']);
    assert.equal(view.sessionId, client.sessionId);
  });

  it('a watch fires once with the event path; an aborted watch stays silent', async () => {
    const path = await client.create(uniquePath('watch'));
    const events: WatchedEvent[] = [];
    await client.getData(path, { watch: (e) => events.push(e) });
    const silenced = new AbortController();
    const silentEvents: WatchedEvent[] = [];
    await client.exists(path, { watch: (e) => silentEvents.push(e), signal: silenced.signal });
    silenced.abort();
    await client.setData(path, Buffer.from('1'));
    await client.setData(path, Buffer.from('2'));
    await waitFor(() => events.length > 0, { timeoutMs: 5000, message: 'watch' });
    // A marker write makes sure any second (wrong) notification would have arrived by now.
    const marker: WatchedEvent[] = [];
    await client.exists(path, { watch: (e) => marker.push(e) });
    await client.delete(path);
    await waitFor(() => marker.length > 0, { timeoutMs: 5000, message: 'marker' });
    assert.deepEqual(events, [{ type: 'NODE_DATA_CHANGED', path }]);
    assert.deepEqual(silentEvents, []);
  });

  it('a transaction is all or nothing and says which op failed', async () => {
    const base = await client.create(uniquePath('tx'));
    const results = await client.transaction([
      op.create(`${base}/a`, { data: Buffer.from('a') }),
      op.create(`${base}/b`),
      op.setData(`${base}/a`, Buffer.from('a2'), { version: 0 }),
      op.check(base, { version: 0 }),
    ]);
    assert.equal(results.length, 4);
    const failure = await client
      .transaction([op.create(`${base}/c`), op.delete(`${base}/a`, { version: 0 })])
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    assert.ok(failure instanceof TransactionFailedError);
    assert.equal(failure.failedOpIndex, 1);
    assert.equal(failure.code, 'BAD_VERSION');
    assert.equal(
      await client.exists(`${base}/c`),
      null,
      'nothing of the failed transaction applied',
    );
  });

  it('watches beyond the budget fail with a clear error before anything is sent', async () => {
    const small = createFramework({
      connectString: server.connectString,
      watchBudgetBytes: 200,
      logger: silentLogger,
    });
    await small.start();
    try {
      const base = await client.create(uniquePath('budget'));
      const watched: string[] = [];
      let refusal: unknown;
      for (let i = 0; i < 20 && refusal === undefined; i += 1) {
        const path = `${base}/node-with-a-longish-name-${i}`;
        await client.create(path);
        try {
          await small.exists(path, { watch: () => undefined });
          watched.push(path);
        } catch (error) {
          refusal = error;
        }
      }
      assert.ok(isWatchBudgetExceeded(refusal), `expected a refusal, got ${String(refusal)}`);
      assert.ok(isInvalidArgument(refusal));
      assert.match(String((refusal as Error).message), /watch budget/);
      assert.ok(watched.length > 0 && watched.length < 20);
      // Unwatched reads still work.
      assert.notEqual(await small.exists(base), null);
    } finally {
      await small.close();
    }
  });

  it('a burst of watched reads cannot overshoot the watch budget (watches in flight are reserved)', async () => {
    const small = createFramework({
      connectString: server.connectString,
      watchBudgetBytes: 300,
      logger: silentLogger,
    });
    await small.start();
    try {
      const base = await client.create(uniquePath('burst'));
      const paths = Array.from({ length: 30 }, (_, i) => `${base}/n${String(i).padStart(2, '0')}`);
      await Promise.all(paths.map((path) => client.create(path)));
      const outcomes = await Promise.allSettled(
        paths.map((path) => small.exists(path, { watch: () => undefined })),
      );
      const watched = paths.filter((_, i) => outcomes[i]?.status === 'fulfilled');
      const refused = outcomes.filter((o) => o.status === 'rejected');
      assert.ok(refused.every((o) => isWatchBudgetExceeded(o.reason)));
      assert.ok(refused.length > 0, 'some watches must be refused');
      const bytes = watched.reduce((sum, path) => sum + 4 + Buffer.byteLength(path), 0);
      assert.ok(bytes <= 300, `${bytes} bytes of watches registered over a 300-byte budget`);
      assert.equal(small.watchBudget.usedBytes, bytes);
    } finally {
      await small.close();
    }
  });

  it('outstanding watches get SESSION_EXPIRED when the session is lost', async () => {
    const path = await client.create(uniquePath('expire'));
    const events: WatchedEvent[] = [];
    await client.getData(path, { watch: (e) => events.push(e) });
    await killSession(client, server.connectString);
    await waitFor(() => events.length > 0, { timeoutMs: 10_000, message: 'expiry' });
    assert.deepEqual(events, [{ type: 'SESSION_EXPIRED', path }]);
  });

  it('guaranteed delete: a delete that fails during an outage is completed after the reconnect', async () => {
    const impatient = createFramework({
      connectString: server.connectString,
      sessionTimeoutMs: 10_000,
      connectionTimeoutMs: 500,
      retryPolicy: new RetryOneTime({ sleepBetweenRetryMs: 10 }),
      logger: silentLogger,
    });
    await impatient.start();
    try {
      const path = await impatient.create(uniquePath('guaranteed'));
      await server.stop();
      await assert.rejects(impatient.delete(path, { guaranteed: true }));
      await server.restart();
      await waitFor(async () => (await client.exists(path)) === null, {
        timeoutMs: 15_000,
        message: 'the guaranteed delete completed in the background',
      });
    } finally {
      await impatient.close();
    }
  });
});
