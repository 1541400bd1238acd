import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Buffer } from 'node:buffer';
import { killSession, uniquePath } from '@zkrecipes/testing';
import { op } from '../../src/client/transaction-op.js';
import { isOutcomeUnknown } from '../../src/errors/predicates.js';
import { lostReplyFixture } from './lost-reply-fixture.js';

// Every write here is sent, applied by the server, and its reply dropped by the proxy, which
// then resets the link: the session survives and the client's retry meets what the first
// attempt did. The answer must be about the first attempt, never the retry's conflict.
describe('writes whose reply is lost', () => {
  const zk = lostReplyFixture();
  const withLostReply = zk.withLostReply.bind(zk);

  it('idempotent versioned setData resolves with the Stat of its own write, 20 of 20', async () => {
    const path = uniquePath('lost-set');
    await zk.observer.create(path, { data: Buffer.from('10') });
    const witnessFolder = await zk.observer.getChildren('/zkrecipes-witnesses').catch(() => []);
    for (let i = 0; i < 20; i++) {
      const { stat } = await zk.observer.getData(path);
      const next = Buffer.from(String(11 + i));
      const { result, err } = await withLostReply(['multi'], '/', () =>
        zk.client.setData(path, next, { version: stat.version, idempotent: true }),
      );
      assert.equal(err, 0, 'the server applied the write');
      assert.equal(
        result.status,
        'fulfilled',
        `trial ${i}: ${String((result as PromiseRejectedResult).reason)}`,
      );
      const read = await zk.observer.getData(path);
      assert.equal(read.data.toString(), next.toString());
      assert.equal(result.value.version, stat.version + 1);
      assert.equal(result.value.mzxid, read.stat.mzxid);
    }
    assert.ok(
      witnessFolder.length <= (await zk.observer.getChildren('/zkrecipes-witnesses')).length,
    );
  });

  it('idempotent setData that lost to another writer rejects BAD_VERSION though its reply was lost', async () => {
    const path = uniquePath('lost-set-race');
    await zk.observer.create(path, { data: Buffer.from('a') });
    const { stat } = await zk.observer.getData(path);
    await zk.observer.setData(path, Buffer.from('b'), { version: stat.version });
    const { result, err } = await withLostReply(['multi'], '/', () =>
      zk.client.setData(path, Buffer.from('b'), { version: stat.version, idempotent: true }),
    );
    // A failed multi's reply header says 0: the refusal is in its per-op results.
    assert.equal(err, 0);
    assert.equal(result.status, 'rejected');
    assert.equal((result.reason as { code?: string }).code, 'BAD_VERSION');
  });

  it('versioned setData without idempotent rejects OUTCOME_UNKNOWN, never BAD_VERSION', async () => {
    const path = uniquePath('lost-set-plain');
    await zk.observer.create(path, { data: Buffer.from('1') });
    const { stat } = await zk.observer.getData(path);
    const { result, err } = await withLostReply(['setData'], path, () =>
      zk.client.setData(path, Buffer.from('2'), { version: stat.version }),
    );
    assert.equal(err, 0);
    assert.equal(result.status, 'rejected');
    assert.ok(isOutcomeUnknown(result.reason, 'BAD_VERSION'), String(result.reason));
  });

  it('idempotent sequential create makes exactly one node and resolves its path', async () => {
    const parent = uniquePath('lost-seq');
    await zk.observer.create(parent);
    for (let i = 0; i < 5; i++) {
      const { result, err } = await withLostReply(['multi'], '/', () =>
        zk.client.create(`${parent}/item-`, { mode: 'PERSISTENT_SEQUENTIAL', idempotent: true }),
      );
      assert.equal(err, 0);
      assert.equal(result.status, 'fulfilled', String((result as PromiseRejectedResult).reason));
      const children = await zk.observer.getChildren(parent);
      assert.equal(children.length, i + 1, children.join(','));
      assert.ok(children.map((c) => `${parent}/${c}`).includes(result.value));
    }
  });

  it('idempotent delete resolves; without it the retry NO_NODE is OUTCOME_UNKNOWN', async () => {
    const a = uniquePath('lost-del');
    const b = uniquePath('lost-del');
    await zk.observer.create(a);
    await zk.observer.create(b);
    const exact = await withLostReply(['multi'], '/', () =>
      zk.client.delete(a, { version: 0, idempotent: true }),
    );
    assert.equal(
      exact.result.status,
      'fulfilled',
      String((exact.result as PromiseRejectedResult).reason),
    );
    const plain = await withLostReply(['delete'], b, () => zk.client.delete(b, { version: 0 }));
    assert.equal(plain.result.status, 'rejected');
    assert.ok(isOutcomeUnknown(plain.result.reason, 'NO_NODE'), String(plain.result.reason));
    assert.equal(await zk.observer.exists(a), null);
    assert.equal(await zk.observer.exists(b), null);
  });

  it('an idempotent transaction resolves with its results; a plain one is OUTCOME_UNKNOWN', async () => {
    const parent = uniquePath('lost-multi');
    await zk.observer.create(parent, { data: Buffer.from('x') });
    const exact = await withLostReply(['multi'], parent, () =>
      zk.client.transaction(
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
      (await zk.observer.getChildren(parent)).map((c) => `${parent}/${c}`),
      [created?.path],
    );
    const plain = await withLostReply(['multi'], parent, () =>
      zk.client.transaction([op.setData(parent, Buffer.from('y'), { version: 0 })]),
    );
    assert.equal(plain.result.status, 'rejected');
    assert.ok(isOutcomeUnknown(plain.result.reason, 'BAD_VERSION'), String(plain.result.reason));
  });

  it('an idempotent write whose session expired with its reply lost rejects OUTCOME_UNKNOWN, never a guess', async () => {
    const path = uniquePath('lost-session');
    await zk.observer.create(path, { data: Buffer.from('a') });
    const credentials = zk.client.sessionCredentials()!;
    const lost = zk.proxy.loseReply({ ops: ['multi'], pathPrefix: path });
    const writing = zk.client.setData(path, Buffer.from('b'), { version: 0, idempotent: true });
    await lost;
    // No way back to the old session: it expires while the write's outcome is open.
    zk.proxy.drop();
    await killSession(credentials, zk.server.connectString);
    zk.proxy.heal();
    await assert.rejects(writing, (error) => isOutcomeUnknown(error));
    assert.equal((await zk.observer.getData(path)).data.toString(), 'b', 'the write had landed');
    assert.notEqual(zk.client.sessionId, credentials.sessionId);
  });
});
