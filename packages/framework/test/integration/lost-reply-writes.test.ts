import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Buffer } from 'node:buffer';
import { FaultProxy, killSession, TestingServer, uniquePath } from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { op } from '../../src/client/transaction-op.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { ExponentialBackoffRetry } from '../../src/retry/exponential-backoff-retry.js';
import { isOutcomeUnknown } from '../../src/errors/predicates.js';

// Every write here is sent, applied by the server, and its reply dropped by the proxy, which
// then resets the link: the session survives and the client's retry meets what the first
// attempt did. The answer must be about the first attempt, never the retry's conflict.
describe('writes whose reply is lost', () => {
  let server: TestingServer;
  let proxy: FaultProxy;
  let observer: FrameworkClient;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    proxy = await FaultProxy.start({ targetPort: server.port });
    observer = createFramework({ connectString: server.connectString, logger: silentLogger });
    client = createFramework({
      connectString: proxy.connectString,
      sessionTimeoutMs: 10_000,
      retryPolicy: new ExponentialBackoffRetry({ baseSleepMs: 20, maxRetries: 10 }),
      logger: silentLogger,
    });
    await Promise.all([observer.start(), client.start()]);
  });
  after(async () => {
    await client.close();
    await observer.close();
    await proxy.close();
    await server.close();
  });

  /** Runs `write` with the reply of the next request matching `ops` on `path` lost. */
  async function withLostReply<T>(
    ops: readonly string[],
    pathPrefix: string,
    write: () => Promise<T>,
  ): Promise<{ result: PromiseSettledResult<T>; err: number }> {
    const lost = proxy.loseReply({ ops, pathPrefix });
    const [result] = await Promise.allSettled([write()]);
    const reported = await lost;
    return { result: result, err: reported.err };
  }

  it('idempotent versioned setData resolves with the Stat of its own write, 20 of 20', async () => {
    const path = uniquePath('lost-set');
    await observer.create(path, { data: Buffer.from('10') });
    const witnessFolder = await observer.getChildren('/zkrecipes-witnesses').catch(() => []);
    for (let i = 0; i < 20; i++) {
      const { stat } = await observer.getData(path);
      const next = Buffer.from(String(11 + i));
      const { result, err } = await withLostReply(['multi'], '/', () =>
        client.setData(path, next, { version: stat.version, idempotent: true }),
      );
      assert.equal(err, 0, 'the server applied the write');
      assert.equal(
        result.status,
        'fulfilled',
        `trial ${i}: ${String((result as PromiseRejectedResult).reason)}`,
      );
      const read = await observer.getData(path);
      assert.equal(read.data.toString(), next.toString());
      assert.equal(result.value.version, stat.version + 1);
      assert.equal(result.value.mzxid, read.stat.mzxid);
    }
    assert.ok(witnessFolder.length <= (await observer.getChildren('/zkrecipes-witnesses')).length);
  });

  it('idempotent setData that lost to another writer rejects BAD_VERSION though its reply was lost', async () => {
    const path = uniquePath('lost-set-race');
    await observer.create(path, { data: Buffer.from('a') });
    const { stat } = await observer.getData(path);
    await observer.setData(path, Buffer.from('b'), { version: stat.version });
    const { result, err } = await withLostReply(['multi'], '/', () =>
      client.setData(path, Buffer.from('b'), { version: stat.version, idempotent: true }),
    );
    // A failed multi's reply header says 0: the refusal is in its per-op results.
    assert.equal(err, 0);
    assert.equal(result.status, 'rejected');
    assert.equal((result.reason as { code?: string }).code, 'BAD_VERSION');
  });

  it('versioned setData without idempotent rejects OUTCOME_UNKNOWN, never BAD_VERSION', async () => {
    const path = uniquePath('lost-set-plain');
    await observer.create(path, { data: Buffer.from('1') });
    const { stat } = await observer.getData(path);
    const { result, err } = await withLostReply(['setData'], path, () =>
      client.setData(path, Buffer.from('2'), { version: stat.version }),
    );
    assert.equal(err, 0);
    assert.equal(result.status, 'rejected');
    assert.ok(isOutcomeUnknown(result.reason, 'BAD_VERSION'), String(result.reason));
  });

  it('idempotent sequential create makes exactly one node and resolves its path', async () => {
    const parent = uniquePath('lost-seq');
    await observer.create(parent);
    for (let i = 0; i < 5; i++) {
      const { result, err } = await withLostReply(['multi'], '/', () =>
        client.create(`${parent}/item-`, { mode: 'PERSISTENT_SEQUENTIAL', idempotent: true }),
      );
      assert.equal(err, 0);
      assert.equal(result.status, 'fulfilled', String((result as PromiseRejectedResult).reason));
      const children = await observer.getChildren(parent);
      assert.equal(children.length, i + 1, children.join(','));
      assert.ok(children.map((c) => `${parent}/${c}`).includes(result.value));
    }
  });

  it('idempotent delete resolves; without it the retry NO_NODE is OUTCOME_UNKNOWN', async () => {
    const a = uniquePath('lost-del');
    const b = uniquePath('lost-del');
    await observer.create(a);
    await observer.create(b);
    const exact = await withLostReply(['multi'], '/', () =>
      client.delete(a, { version: 0, idempotent: true }),
    );
    assert.equal(
      exact.result.status,
      'fulfilled',
      String((exact.result as PromiseRejectedResult).reason),
    );
    const plain = await withLostReply(['delete'], b, () => client.delete(b, { version: 0 }));
    assert.equal(plain.result.status, 'rejected');
    assert.ok(isOutcomeUnknown(plain.result.reason, 'NO_NODE'), String(plain.result.reason));
    assert.equal(await observer.exists(a), null);
    assert.equal(await observer.exists(b), null);
  });

  it('an idempotent transaction resolves with its results; a plain one is OUTCOME_UNKNOWN', async () => {
    const parent = uniquePath('lost-multi');
    await observer.create(parent, { data: Buffer.from('x') });
    const exact = await withLostReply(['multi'], parent, () =>
      client.transaction(
        [
          op.check(parent, { version: 0 }),
          op.create(`${parent}/q-`, { mode: 'PERSISTENT_SEQUENTIAL' }),
        ],
        { idempotent: true },
      ),
    );
    assert.equal(
      exact.result.status,
      'fulfilled',
      String((exact.result as PromiseRejectedResult).reason),
    );
    const created = exact.result.value[1];
    assert.equal(created?.type, 'create');
    assert.deepEqual(
      (await observer.getChildren(parent)).map((c) => `${parent}/${c}`),
      [created?.path],
    );
    const plain = await withLostReply(['multi'], parent, () =>
      client.transaction([op.setData(parent, Buffer.from('y'), { version: 0 })]),
    );
    assert.equal(plain.result.status, 'rejected');
    assert.ok(isOutcomeUnknown(plain.result.reason, 'BAD_VERSION'), String(plain.result.reason));
  });

  it('an idempotent write whose session expired with its reply lost rejects OUTCOME_UNKNOWN, never a guess', async () => {
    const path = uniquePath('lost-session');
    await observer.create(path, { data: Buffer.from('a') });
    const credentials = client.sessionCredentials()!;
    const lost = proxy.loseReply({ ops: ['multi'], pathPrefix: path });
    const writing = client.setData(path, Buffer.from('b'), { version: 0, idempotent: true });
    await lost;
    // No way back to the old session: it expires while the write's outcome is open.
    proxy.drop();
    await killSession(credentials, server.connectString);
    proxy.heal();
    await assert.rejects(writing, (error) => isOutcomeUnknown(error));
    assert.equal((await observer.getData(path)).data.toString(), 'b', 'the write had landed');
    assert.notEqual(client.sessionId, credentials.sessionId);
  });

  it('a plain create that meets its own node resolves; an ephemeral is judged by its owner', async () => {
    const persistent = uniquePath('lost-create');
    const ephemeral = uniquePath('lost-create-eph');
    const p = await withLostReply(['create'], persistent, () =>
      client.create(persistent, { data: Buffer.from('mine') }),
    );
    assert.equal(p.result.status, 'fulfilled', String((p.result as PromiseRejectedResult).reason));
    const e = await withLostReply(['create'], ephemeral, () =>
      client.create(ephemeral, { mode: 'EPHEMERAL' }),
    );
    assert.equal(e.result.status, 'fulfilled', String((e.result as PromiseRejectedResult).reason));
    assert.equal((await observer.exists(ephemeral))?.ephemeralOwner, client.sessionId);
  });
});
