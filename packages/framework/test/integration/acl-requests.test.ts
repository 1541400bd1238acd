import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TestingServer, uniquePath } from '@zkrecipes/testing';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { isBadVersion, isNoNode } from '../../src/errors/predicates.js';
import type { ZooKeeperError } from '../../src/errors/zookeeper-error.js';
import { OPEN_ACL_UNSAFE, Perms, type Acl } from '../../src/zk/zookeeper-types.js';
import { quickClient } from './fixtures/quick-client.js';

/**
 * Read for anyone, everything for this host (the test's clients connect over loopback). Not a
 * digest entry: ZooKeeper 3.7+ answers getACL with a digest's hash replaced by 'x' unless the
 * client may administer the node.
 */
const TWO_ENTRIES: readonly Acl[] = [
  { perms: Perms.READ, id: { scheme: 'world', id: 'anyone' } },
  { perms: Perms.ALL, id: { scheme: 'ip', id: '127.0.0.1' } },
];

/** `attempt`'s rejection, which must be a ZooKeeperError matching `is`, with `path`. */
async function rejection(
  attempt: Promise<unknown>,
  is: (error: unknown) => boolean,
  path: string,
): Promise<void> {
  const error = await attempt.then(
    () => assert.fail('expected a rejection'),
    (e: unknown) => e,
  );
  assert.ok(is(error), `unexpected ${String(error)}`);
  assert.equal((error as ZooKeeperError).path, path);
}

/*
 * getACL and setACL are written and decoded by @zkrecipes/wire (not by node-zookeeper-client):
 * the ACL entries, the Stat, the version check, the errors with their paths, and the chroot and
 * namespace mapping must be what the server has.
 */
describe('getAcl and setAcl on a real server', () => {
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

  it('reads the ACL and Stat the server has; setAcl replaces the entries in order, checks the aversion and resolves the new Stat', async () => {
    const path = await client.create(uniquePath('acl'));
    const initial = await client.getAcl(path);
    assert.deepEqual(initial.acl, OPEN_ACL_UNSAFE);
    assert.deepEqual(initial.stat, await client.exists(path));
    assert.equal(initial.stat.aversion, 0);

    const stat = await client.setAcl(path, TWO_ENTRIES, { version: 0 });
    assert.equal(stat.aversion, 1);
    const read = await client.getAcl(path);
    assert.deepEqual(read.acl, TWO_ENTRIES);
    assert.deepEqual(read.stat, stat);

    await rejection(client.setAcl(path, OPEN_ACL_UNSAFE, { version: 0 }), isBadVersion, path);
    assert.deepEqual((await client.getAcl(path)).acl, TWO_ENTRIES);
    assert.equal((await client.setAcl(path, OPEN_ACL_UNSAFE)).aversion, 2); // -1: any version
  });

  it('rejects both on a missing node with NoNodeError naming the path', async () => {
    const missing = `${uniquePath('acl')}/missing`;
    await rejection(client.getAcl(missing), isNoNode, missing);
    await rejection(client.setAcl(missing, OPEN_ACL_UNSAFE), isNoNode, missing);
  });

  it('maps paths under a namespace: the node is the namespaced one; errors name the server path (as for every operation)', async () => {
    const ns = uniquePath('acl-ns').slice(1);
    const view = client.usingNamespace(ns);
    await view.create('/n', { createParents: true });
    await view.setAcl('/n', TWO_ENTRIES, { version: 0 });
    assert.deepEqual((await client.getAcl(`/${ns}/n`)).acl, TWO_ENTRIES);
    assert.deepEqual((await view.getAcl('/n')).acl, TWO_ENTRIES);
    const n = `/${ns}/n`;
    await rejection(view.setAcl('/n', OPEN_ACL_UNSAFE, { version: 0 }), isBadVersion, n);
    await rejection(view.getAcl('/gone'), isNoNode, `/${ns}/gone`);
  });

  it('maps paths under a connect-string chroot: the node is below the chroot, errors name the client path', async () => {
    const chroot = await client.create(uniquePath('acl-chroot'));
    await client.create(`${chroot}/n`);
    const rooted = await quickClient(`${server.connectString}${chroot}`);
    try {
      const stat = await rooted.setAcl('/n', TWO_ENTRIES, { version: 0 });
      assert.deepEqual((await client.getAcl(`${chroot}/n`)).acl, TWO_ENTRIES);
      assert.deepEqual(await rooted.getAcl('/n'), { acl: TWO_ENTRIES, stat });
      assert.deepEqual((await rooted.getAcl('/')).acl, OPEN_ACL_UNSAFE);
      await rejection(rooted.setAcl('/n', OPEN_ACL_UNSAFE, { version: 0 }), isBadVersion, '/n');
      await rejection(rooted.getAcl('/gone'), isNoNode, '/gone');
      await rejection(rooted.setAcl('/gone', OPEN_ACL_UNSAFE), isNoNode, '/gone');
    } finally {
      await rooted.close();
    }
  });
});
