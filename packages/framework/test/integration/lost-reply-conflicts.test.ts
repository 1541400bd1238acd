import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { describe, it } from 'node:test';
import { uniquePath } from '@zkrecipes/testing';
import { isNodeExists, isNoNode, isOutcomeUnknown } from '../../src/errors/predicates.js';
import { OPEN_ACL_UNSAFE } from '../../src/zk/zookeeper-types.js';
import { fulfilment, lostReplyFixture, rejection } from './lost-reply-fixture.js';

// The rule of docs/architecture.md, "Retries and lost replies": after a lost reply, a conflict
// the write itself could have caused is OutcomeUnknownError without `idempotent`, exact with
// it; only an unversioned delete meeting NO_NODE and a protected create finding its own node
// are answered from the server's state. A lost reply with an error (`err` below 0) is one of a
// write the server refused: another client came first, the case a guess would get wrong.
describe('a conflict met after a lost reply', () => {
  const zk = lostReplyFixture();

  it('a plain create meeting a node is OUTCOME_UNKNOWN: its own (persistent, createParents, ephemeral) or another client’s with the same bytes', async () => {
    const own = `${uniquePath('lost-own')}/leaf`;
    // The first create meets NO_NODE (no parent yet); the one after ensurePath loses its reply.
    const mine = await zk.withLostReply(
      ['create'],
      own,
      () => zk.client.create(own, { data: Buffer.from('same'), createParents: true }),
      1,
    );
    assert.equal(mine.err, 0, 'the server applied the create');
    assert.ok(isOutcomeUnknown(rejection(mine.result), 'NODE_EXISTS'));

    const ephemeral = uniquePath('lost-own-eph');
    const eph = await zk.withLostReply(['create'], ephemeral, () =>
      zk.client.create(ephemeral, { mode: 'EPHEMERAL' }),
    );
    assert.equal(eph.err, 0);
    assert.ok(isOutcomeUnknown(rejection(eph.result), 'NODE_EXISTS'));
    assert.equal((await zk.observer.exists(ephemeral))?.ephemeralOwner, zk.client.sessionId);

    // Another client made the node with the very bytes we send; ours was refused.
    const theirs = uniquePath('lost-theirs');
    await zk.observer.create(theirs, { data: Buffer.from('same') });
    const other = await zk.withLostReply(['create'], theirs, () =>
      zk.client.create(theirs, { data: Buffer.from('same') }),
    );
    assert.equal(other.err, -110, 'the server refused our create: NODE_EXISTS');
    assert.ok(isOutcomeUnknown(rejection(other.result), 'NODE_EXISTS'));
  });

  it('an idempotent create resolves its own node and rejects NODE_EXISTS for another’s', async () => {
    const own = uniquePath('lost-own-idem');
    const mine = await zk.withLostReply(['multi'], own, () =>
      zk.client.create(own, { data: Buffer.from('same'), idempotent: true }),
    );
    assert.equal(mine.err, 0);
    assert.equal(fulfilment(mine.result), own);

    const theirs = uniquePath('lost-theirs-idem');
    await zk.observer.create(theirs, { data: Buffer.from('same') });
    const other = await zk.withLostReply(['multi'], theirs, () =>
      zk.client.create(theirs, { data: Buffer.from('same'), idempotent: true }),
    );
    assert.ok(isNodeExists(rejection(other.result)));
  });

  it('a protected create finds its own node; an unprotected sequential one may make a second', async () => {
    const parent = uniquePath('lost-protected');
    await zk.observer.create(parent);
    const guarded = await zk.withLostReply(['create'], parent, () =>
      zk.client.create(`${parent}/p-`, { mode: 'PERSISTENT_SEQUENTIAL', protection: true }),
    );
    assert.equal(guarded.err, 0);
    const children = await zk.observer.getChildren(parent);
    assert.equal(children.length, 1, children.join(','));
    assert.equal(fulfilment(guarded.result), `${parent}/${children[0]}`);

    const plain = uniquePath('lost-seq');
    await zk.observer.create(plain);
    const seq = await zk.withLostReply(['create'], plain, () =>
      zk.client.create(`${plain}/s-`, { mode: 'PERSISTENT_SEQUENTIAL' }),
    );
    assert.equal(seq.err, 0);
    const made = await zk.observer.getChildren(plain);
    assert.equal(made.length, 2, 'the lost attempt made a node, and so did the retry');
    assert.ok(made.map((name) => `${plain}/${name}`).includes(fulfilment(seq.result)));
  });

  it('an unversioned delete meeting NO_NODE resolves, its own delete or not; a versioned one is OUTCOME_UNKNOWN', async () => {
    const own = uniquePath('lost-del-own');
    const gone = uniquePath('lost-del-gone');
    const versioned = uniquePath('lost-del-v');
    await zk.observer.create(own);
    await zk.observer.create(versioned);
    const mine = await zk.withLostReply(['delete'], own, () => zk.client.delete(own));
    assert.equal(mine.err, 0);
    fulfilment(mine.result);
    const missing = await zk.withLostReply(['delete'], gone, () => zk.client.delete(gone));
    assert.equal(missing.err, -101, 'the server refused our delete: NO_NODE');
    fulfilment(missing.result);
    const v = await zk.withLostReply(['delete'], versioned, () =>
      zk.client.delete(versioned, { version: 0, guaranteed: true }),
    );
    assert.equal(v.err, 0);
    assert.ok(isOutcomeUnknown(rejection(v.result), 'NO_NODE'));
    assert.equal(await zk.observer.exists(own), null);
    assert.equal(await zk.observer.exists(versioned), null);
  });

  it('an idempotent unversioned delete of a node already gone rejects NO_NODE exactly', async () => {
    const path = uniquePath('lost-del-idem');
    const lost = await zk.withLostReply(['multi'], path, () =>
      zk.client.delete(path, { idempotent: true }),
    );
    assert.ok(isNoNode(rejection(lost.result)));
  });

  it('deletingChildrenIfNeeded with a child delete’s reply lost resolves and the subtree is gone', async () => {
    const path = uniquePath('lost-del-tree');
    await zk.observer.create(`${path}/a/b`, { createParents: true });
    const lost = await zk.withLostReply(['delete'], `${path}/a/b`, () =>
      zk.client.delete(path, { deleteChildren: true, guaranteed: true }),
    );
    assert.equal(lost.err, 0);
    fulfilment(lost.result);
    assert.equal(await zk.observer.exists(path), null);
  });

  it('a versioned setData or setAcl meeting BAD_VERSION is OUTCOME_UNKNOWN, even when another client wrote our bytes', async () => {
    const path = uniquePath('lost-counter');
    await zk.observer.create(path, { data: Buffer.from('1') });
    // The counter case: both read version 0 and write 2; the other client's write came first.
    await zk.observer.setData(path, Buffer.from('2'), { version: 0 });
    const counter = await zk.withLostReply(['setData'], path, () =>
      zk.client.setData(path, Buffer.from('2'), { version: 0 }),
    );
    assert.equal(counter.err, -103, 'the server refused our setData: BAD_VERSION');
    assert.ok(isOutcomeUnknown(rejection(counter.result), 'BAD_VERSION'));

    const acl = await zk.withLostReply(['setACL'], path, () =>
      zk.client.setAcl(path, OPEN_ACL_UNSAFE, { version: 0 }),
    );
    assert.equal(acl.err, 0, 'the server applied the setAcl');
    assert.ok(isOutcomeUnknown(rejection(acl.result), 'BAD_VERSION'));
    assert.equal((await zk.observer.getAcl(path)).stat.aversion, 1);
  });
});
