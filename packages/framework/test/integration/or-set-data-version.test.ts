import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { describe, it } from 'node:test';
import { uniquePath, waitFor } from '@zkrecipes/testing';
import { BadVersionError } from '../../src/errors/zookeeper-error-classes.js';
import { isBadVersion, isInvalidArgument, isOutcomeUnknown } from '../../src/errors/predicates.js';
import { fulfilment, lostReplyFixture, rejection } from './lost-reply-fixture.js';

describe('create with orSetData: { version }', () => {
  const zk = lostReplyFixture();

  it('creates a missing node, sets an existing one at that version, and rejects BadVersionError at another', async () => {
    const path = uniquePath('or-set');
    const made = await zk.client.create(path, {
      data: Buffer.from('a'),
      orSetData: { version: 7 },
      stat: true,
    });
    assert.equal(made.stat.version, 0);
    const set = await zk.client.create(path, {
      data: Buffer.from('b'),
      orSetData: { version: 0 },
      stat: true,
    });
    assert.equal(set.path, path);
    assert.equal(set.stat.version, 1);
    assert.equal((await zk.observer.getData(path)).data.toString(), 'b');
    await assert.rejects(
      zk.client.create(path, { data: Buffer.from('c'), orSetData: { version: 0 } }),
      (error) => error instanceof BadVersionError && error.path === path,
    );
    const read = await zk.observer.getData(path);
    assert.equal(read.data.toString(), 'b');
    assert.equal(read.stat.version, 1);
    // -1 is any version, as orSetData: true.
    await zk.client.create(path, { data: Buffer.from('d'), orSetData: { version: -1 } });
    assert.equal((await zk.observer.getData(path)).data.toString(), 'd');
  });

  it('bad orSetData values are InvalidArgumentErrors and nothing is created', async () => {
    const path = uniquePath('or-set-bad');
    for (const orSetData of [{ version: -2 }, { version: 1.5 }, {}, 'yes', 1]) {
      await assert.rejects(
        zk.client.create(path, { orSetData: orSetData as { version: number } }),
        (error) => isInvalidArgument(error),
      );
    }
    assert.equal(await zk.observer.exists(path), null);
  });

  it("the setData's reply lost: OutcomeUnknownError though it landed; idempotent resolves its Stat", async () => {
    const path = uniquePath('or-set-lost');
    await zk.observer.create(path, { data: Buffer.from('theirs') });
    const plain = await zk.withLostReply(['setData'], path, () =>
      zk.client.create(path, { data: Buffer.from('ours'), orSetData: { version: 0 } }),
    );
    assert.equal(plain.err, 0, 'the server applied the setData');
    assert.ok(isOutcomeUnknown(rejection(plain.result), 'BAD_VERSION'));
    assert.equal((await zk.observer.getData(path)).data.toString(), 'ours');

    // The first multi is the create (NODE_EXISTS); the second, the setData, loses its reply.
    const exact = await zk.withLostReply(
      ['multi'],
      path,
      () =>
        zk.client.create(path, {
          data: Buffer.from('ours again'),
          orSetData: { version: 1 },
          stat: true,
          idempotent: true,
        }),
      1,
    );
    assert.equal(exact.err, 0);
    const read = await zk.observer.getData(path);
    assert.equal(read.data.toString(), 'ours again');
    assert.equal(fulfilment(exact.result).stat.mzxid, read.stat.mzxid);
  });

  it('another client wrote our very bytes at that version first: never a success (OutcomeUnknownError; idempotent: BAD_VERSION)', async () => {
    const path = uniquePath('or-set-counter');
    await zk.observer.create(path, { data: Buffer.from('1') });
    // Two increments from the same read (version 0, value 1): the other client's landed first.
    await zk.observer.setData(path, Buffer.from('2'), { version: 0 });
    const plain = await zk.withLostReply(['setData'], path, () =>
      zk.client.create(path, { data: Buffer.from('2'), orSetData: { version: 0 } }),
    );
    assert.equal(plain.err, -103, 'the server refused our setData: BAD_VERSION');
    assert.ok(isOutcomeUnknown(rejection(plain.result), 'BAD_VERSION'));

    const exact = await zk.withLostReply(
      ['multi'],
      path,
      () =>
        zk.client.create(path, {
          data: Buffer.from('2'),
          orSetData: { version: 0 },
          idempotent: true,
        }),
      1,
    );
    assert.ok(isBadVersion(rejection(exact.result)));
    assert.equal((await zk.observer.getData(path)).stat.version, 1, 'only the other write landed');
  });

  it("orSetData: true with the create's reply lost resolves and the node holds our data", async () => {
    const path = uniquePath('or-set-any');
    const lost = await zk.withLostReply(['create'], path, () =>
      zk.client.create(path, { data: Buffer.from('ours'), orSetData: true }),
    );
    assert.equal(lost.err, 0);
    assert.equal(fulfilment(lost.result), path);
    assert.equal((await zk.observer.getData(path)).data.toString(), 'ours');
  });

  it('the reply lost and another write came after ours: OutcomeUnknownError, never BAD_VERSION', async () => {
    const path = uniquePath('or-set-lost-race');
    await zk.observer.create(path, { data: Buffer.from('theirs') });
    // The reset comes a second after the lost reply: time for another client to write after us.
    const lost = zk.proxy.loseReply({ ops: ['setData'], pathPrefix: path, resetAfterMs: 1_000 });
    const writing = zk.client.create(path, {
      data: Buffer.from('ours'),
      orSetData: { version: 0 },
    });
    await waitFor(async () => (await zk.observer.exists(path))?.version === 1, {
      message: 'our setData applied',
    });
    await zk.observer.setData(path, Buffer.from('later'));
    assert.equal((await lost).err, 0);
    const error = await writing.then(
      () => assert.fail('expected a rejection'),
      (e: unknown) => e,
    );
    assert.ok(isOutcomeUnknown(error, 'BAD_VERSION'), String(error));
    assert.equal((await zk.observer.getData(path)).data.toString(), 'later');
  });
});
