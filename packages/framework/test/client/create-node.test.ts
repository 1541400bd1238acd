import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { aclProviderFrom } from '../../src/client/acl-provider.js';
import { guaranteedDeleteQueueFor } from '../../src/client/guaranteed-delete-queue.js';
import { isConnectionLoss, isNodeExists } from '../../src/errors/predicates.js';
import { ZooKeeperErrorCode } from '../../src/errors/zookeeper-error-code.js';
import { OPEN_ACL_UNSAFE } from '../../src/zk/zookeeper-types.js';
import type { Acl } from '../../src/zk/zookeeper-types.js';
import { fakeSetup, immediateRetry } from './fake-context.js';

const PROTECTED = /^_c_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-/;
const READ_ONLY_ACL: readonly Acl[] = [{ perms: 1, id: { scheme: 'world', id: 'anyone' } }];

describe('FrameworkClient.create', () => {
  it('resolves the path created, with the sequence number for sequential modes', async () => {
    const { zk, client } = await fakeSetup();
    zk.seed('/q');
    assert.equal(await client.create('/q/a', { data: Buffer.from('x') }), '/q/a');
    assert.equal(
      await client.create('/q/item-', { mode: 'PERSISTENT_SEQUENTIAL' }),
      '/q/item-0000000001',
    );
    assert.equal(zk.dataOf('/q/a'), 'x');
    assert.equal(zk.dataOf('/q/item-0000000001'), '');
  });

  it('names a protected node _c_<uuid>-<name>, the bytes Curator uses', async () => {
    const { zk, client } = await fakeSetup();
    zk.seed('/locks');
    const path = await client.create('/locks/lock-', {
      mode: 'EPHEMERAL_SEQUENTIAL',
      protection: true,
    });
    const name = path.slice('/locks/'.length);
    assert.match(name, PROTECTED);
    assert.match(name, /-lock-0000000000$/);
    assert.equal(name.length, 40 + 'lock-'.length + 10);
  });

  it('protected create: CONNECTION_LOSS after the server applied it -> finds its node, exactly one exists', async () => {
    const { zk, client } = await fakeSetup();
    zk.seed('/locks');
    zk.failNext('create', { when: 'after' });
    const path = await client.create('/locks/lock-', {
      mode: 'EPHEMERAL_SEQUENTIAL',
      protection: true,
    });
    assert.deepEqual(
      zk.childrenOf('/locks').map((name) => `/locks/${name}`),
      [path],
    );
    assert.equal(zk.callsOf('create').length, 1, 'no second create was sent');
    assert.equal(zk.callsOf('getChildren').length, 1, 'the retry listed the parent');
  });

  it('protected create: an ephemeral found from an older session is deleted and created again', async () => {
    const { zk, client } = await fakeSetup();
    zk.seed('/locks');
    const oldSession = zk.sessionId;
    const newSession = 0x2002n;
    // The create lands in the old session; the reply is lost and the client moves to a new one.
    zk.failNext('create', { when: 'after', then: () => (zk.sessionId = newSession) });
    const path = await client.create('/locks/lock-', {
      mode: 'EPHEMERAL_SEQUENTIAL',
      protection: true,
    });
    const children = zk.childrenOf('/locks');
    assert.equal(children.length, 1, `exactly one node: ${children.join(', ')}`);
    assert.equal(`/locks/${children[0]}`, path);
    const stat = await zk.exists(path);
    assert.equal(stat?.ephemeralOwner, newSession);
    assert.notEqual(stat?.ephemeralOwner, oldSession);
    assert.doesNotMatch(path, /-lock-0000000000$/, "not the old session's node");
  });

  it('protected create: a persistent node found after a lost reply is returned whatever the session', async () => {
    const { zk, client } = await fakeSetup();
    zk.seed('/jobs');
    zk.failNext('create', { when: 'after', then: () => (zk.sessionId = 0x3003n) });
    const path = await client.create('/jobs/job-', {
      mode: 'PERSISTENT_SEQUENTIAL',
      protection: true,
    });
    assert.deepEqual(zk.childrenOf('/jobs'), [path.slice('/jobs/'.length)]);
    assert.equal(zk.callsOf('create').length, 1);
  });

  it('protected create: a failure before the server applied it creates on the retry', async () => {
    const { zk, client } = await fakeSetup();
    zk.seed('/locks');
    zk.failNext('create', { when: 'before' });
    const path = await client.create('/locks/lock-', {
      mode: 'EPHEMERAL_SEQUENTIAL',
      protection: true,
    });
    assert.deepEqual(zk.childrenOf('/locks'), [path.slice('/locks/'.length)]);
    assert.equal(zk.callsOf('create').length, 2);
  });

  it('protected create that gives up: the caller gets the error and the orphan is removed in the background', async () => {
    const { zk, client, context } = await fakeSetup({ retryPolicy: immediateRetry(0) });
    zk.seed('/locks');
    zk.failNext('create', { when: 'after' });
    await assert.rejects(
      client.create('/locks/lock-', { mode: 'EPHEMERAL_SEQUENTIAL', protection: true }),
      isConnectionLoss,
    );
    await guaranteedDeleteQueueFor(context).whenIdle();
    assert.deepEqual(zk.childrenOf('/locks'), []);
  });

  it('without protection a lost reply is retried blindly (and may duplicate), as in Curator', async () => {
    const { zk, client } = await fakeSetup();
    zk.seed('/q');
    zk.failNext('create', { when: 'after' });
    await client.create('/q/item-', { mode: 'PERSISTENT_SEQUENTIAL' });
    assert.equal(zk.childrenOf('/q').length, 2);
  });

  it('createParents makes missing parents CONTAINERs by default, the leaf in its own mode', async () => {
    const { zk, client } = await fakeSetup();
    await client.create('/c1/c2/leaf', { createParents: true });
    assert.equal(zk.modes.get('/c1'), 'CONTAINER');
    assert.equal(zk.modes.get('/c1/c2'), 'CONTAINER');
    assert.equal(zk.modes.get('/c1/c2/leaf'), 'PERSISTENT');
  });

  it("createParents makes PERSISTENT parents with useContainerParents: false (Curator's dontUseContainerParents)", async () => {
    const { zk, client } = await fakeSetup({ useContainerParents: false });
    await client.create('/p1/p2/leaf', { createParents: true });
    assert.equal(zk.modes.get('/p1'), 'PERSISTENT');
    assert.equal(zk.modes.get('/p1/p2'), 'PERSISTENT');
  });

  it('containerParents on the call overrides the client either way', async () => {
    const { zk, client } = await fakeSetup();
    await client.create('/o1/leaf', { createParents: true, containerParents: false });
    assert.equal(zk.modes.get('/o1'), 'PERSISTENT');
    const { zk: zk2, client: client2 } = await fakeSetup({ useContainerParents: false });
    await client2.create('/o2/leaf', { createParents: true, containerParents: true });
    assert.equal(zk2.modes.get('/o2'), 'CONTAINER');
  });

  it('the namespace node is a CONTAINER (as Curator makes it), PERSISTENT when opted out', async () => {
    const { zk, client } = await fakeSetup({ namespace: 'ns1' });
    await client.create('/a');
    assert.equal(zk.modes.get('/ns1'), 'CONTAINER');
    assert.equal(zk.modes.get('/ns1/a'), 'PERSISTENT');
    const opted = await fakeSetup({ namespace: 'ns2', useContainerParents: false });
    await opted.client.create('/a');
    assert.equal(opted.zk.modes.get('/ns2'), 'PERSISTENT');
  });

  it('createParents makes the parent again when it vanishes between ensure and create (a reaped container)', async () => {
    const { zk, client } = await fakeSetup();
    zk.seed('/r');
    // The server reaps /r/p right after we made it: the first create under it fails NO_NODE.
    zk.failNext('create', { code: ZooKeeperErrorCode.NO_NODE, path: (p) => p === '/r/p/leaf' });
    zk.failNext('create', { code: ZooKeeperErrorCode.NO_NODE, path: (p) => p === '/r/p/leaf' });
    assert.equal(await client.create('/r/p/leaf', { createParents: true }), '/r/p/leaf');
    assert.equal(zk.modes.get('/r/p'), 'CONTAINER');
  });

  it('createParents starts again from the top when an ancestor vanishes while it makes the parents', async () => {
    const { zk, client } = await fakeSetup();
    // /e1 is made, then (as a reaped container would) creating /e1/e2 under it fails NO_NODE once.
    zk.failNext('create', { code: ZooKeeperErrorCode.NO_NODE, path: (p) => p === '/e1/e2' });
    assert.equal(await client.create('/e1/e2/leaf', { createParents: true }), '/e1/e2/leaf');
    assert.deepEqual(
      zk.calls.filter((c) => c.op === 'create').map((c) => c.path),
      ['/e1/e2/leaf', '/e1', '/e1/e2', '/e1/e2', '/e1/e2/leaf'],
    );
  });

  it('createParents makes missing parents with empty data and the provider ACL', async () => {
    const { zk, client } = await fakeSetup({ aclProvider: aclProviderFrom(READ_ONLY_ACL) });
    const leafAcl: readonly Acl[] = OPEN_ACL_UNSAFE;
    const path = await client.create('/a/b/c', {
      data: Buffer.from('leaf'),
      createParents: true,
      acl: leafAcl,
    });
    assert.equal(path, '/a/b/c');
    assert.equal(zk.dataOf('/a'), '');
    assert.equal(zk.dataOf('/a/b'), '');
    assert.equal(zk.dataOf('/a/b/c'), 'leaf');
    assert.deepEqual(zk.aclOf('/a'), READ_ONLY_ACL);
    assert.deepEqual(zk.aclOf('/a/b'), READ_ONLY_ACL);
    assert.deepEqual(zk.aclOf('/a/b/c'), leafAcl);
    assert.equal((await zk.exists('/a'))?.ephemeralOwner, 0n);
  });

  it('createParents tolerates a parent created concurrently (NODE_EXISTS)', async () => {
    const { zk, client } = await fakeSetup();
    // The parent appears between our exists and our create: the fake creates it, then says NODE_EXISTS.
    zk.failNext('create', {
      when: 'after',
      code: ZooKeeperErrorCode.NODE_EXISTS,
      path: (p) => p === '/a',
    });
    assert.equal(await client.create('/a/b', { createParents: true }), '/a/b');
    assert.deepEqual(zk.paths(), ['/', '/a', '/a/b']);
  });

  it('without createParents a missing parent is NO_NODE', async () => {
    const { client } = await fakeSetup();
    await assert.rejects(client.create('/missing/child'), { code: 'NO_NODE' });
  });

  it('the ACL provider applies to every create unless acl is given', async () => {
    const { zk, client } = await fakeSetup({
      aclProvider: aclProviderFrom((path) => (path.startsWith('/ro') ? READ_ONLY_ACL : undefined)),
    });
    await client.create('/ro');
    await client.create('/open');
    await client.create('/ro2', { acl: OPEN_ACL_UNSAFE });
    assert.deepEqual(zk.aclOf('/ro'), READ_ONLY_ACL);
    assert.deepEqual(zk.aclOf('/open'), OPEN_ACL_UNSAFE);
    assert.deepEqual(zk.aclOf('/ro2'), OPEN_ACL_UNSAFE);
  });

  it('orSetData sets the data of an existing node and resolves its path', async () => {
    const { zk, client } = await fakeSetup();
    zk.seed('/config', 'old');
    assert.equal(
      await client.create('/config', { data: Buffer.from('new'), orSetData: true }),
      '/config',
    );
    assert.equal(zk.dataOf('/config'), 'new');
    await assert.rejects(client.create('/config', { data: Buffer.from('x') }), isNodeExists);
  });

  it('orSetData with createParents creates the whole path when nothing exists', async () => {
    const { zk, client } = await fakeSetup();
    await client.create('/x/y', { data: Buffer.from('1'), orSetData: true, createParents: true });
    assert.equal(zk.dataOf('/x/y'), '1');
  });

  it('accepts a plain Uint8Array as data', async () => {
    const { zk, client } = await fakeSetup();
    const bytes = new Uint8Array([0, 104, 105, 0]).subarray(1, 3);
    await client.create('/u8', { data: bytes });
    assert.equal(zk.dataOf('/u8'), 'hi');
  });
});
