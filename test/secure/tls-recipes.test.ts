// The recipes over a TLS connection with a client certificate: each one's basic use, through
// the published packages, on a server that serves only x509-authenticated clients' nodes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  aclProviderFrom,
  createFramework,
  CREATOR_ALL_ACL,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { PathChildrenCache } from '@zkrecipes/caches';
import { LeaderLatch } from '@zkrecipes/leader';
import { InterProcessMutex } from '@zkrecipes/locks';
import { SimpleDistributedQueue } from '@zkrecipes/queues';
import { TestingServer, TlsMaterial, timing, uniquePath, waitFor } from '@zkrecipes/testing';

const silent = { error() {}, warn() {}, info() {}, debug() {} };

describe('recipes over mutual TLS', () => {
  let material: TlsMaterial;
  let server: TestingServer;
  let first: FrameworkClient;
  let second: FrameworkClient;

  async function client(): Promise<FrameworkClient> {
    const alice = material.client('alice');
    const made = createFramework({
      connectString: server.secureConnectString,
      sessionTimeoutMs: 10_000,
      tls: { ca: material.caCert, cert: alice.cert, key: alice.key },
      // Every node, recipe parents included, readable by the certificate's subject only.
      aclProvider: aclProviderFrom(CREATOR_ALL_ACL),
      logger: silent,
    });
    await made.start({ timeoutMs: timing.ms(10_000) });
    return made;
  }

  before(async () => {
    material = await TlsMaterial.create({ clients: ['alice'] });
    server = await TestingServer.start({ tls: { material, clientAuth: 'need' } });
    first = await client();
    second = await client();
  });
  after(async () => {
    await first.close();
    await second.close();
    await server.close();
    await material.close();
  });

  it('InterProcessMutex: one holder at a time across two clients', async () => {
    const path = uniquePath('tls-lock');
    const mine = new InterProcessMutex(first, path);
    const theirs = new InterProcessMutex(second, path);
    await mine.acquire();
    assert.equal(await theirs.acquire(0), false);
    await mine.release();
    assert.equal(await theirs.acquire(timing.ms(5000)), true);
    await theirs.release();
    const { acl } = await first.getAcl(path);
    assert.deepEqual(acl[0]?.id, { scheme: 'x509', id: material.client('alice').subjectDn });
  });

  it('LeaderLatch: one of two latches leads; closing it hands leadership over', async () => {
    const path = uniquePath('tls-leader');
    const a = new LeaderLatch(first, path, { id: 'a' });
    const b = new LeaderLatch(second, path, { id: 'b' });
    await a.start();
    await a.await({ timeoutMs: timing.ms(5000) });
    await b.start();
    assert.equal(a.isLeader, true);
    assert.equal(b.isLeader, false);
    await a.close();
    await b.await({ timeoutMs: timing.ms(5000) });
    assert.equal(b.isLeader, true);
    await b.close();
  });

  it("PathChildrenCache: sees another client's child", async () => {
    const path = uniquePath('tls-cache');
    await first.create(path);
    const cache = new PathChildrenCache(first, path);
    await cache.start();
    try {
      await second.create(`${path}/child`, { data: Buffer.from('hello') });
      await waitFor(() => cache.getCurrentData().length === 1, { timeoutMs: timing.ms(5000) });
      assert.equal(cache.getCurrentData()[0]?.data?.toString(), 'hello');
    } finally {
      await cache.close();
    }
  });

  it('SimpleDistributedQueue: an item offered by one client is taken by the other', async () => {
    const path = uniquePath('tls-queue');
    await new SimpleDistributedQueue(first, path).offer(Buffer.from('item'));
    const taken = await new SimpleDistributedQueue(second, path).take({
      timeoutMs: timing.ms(5000),
    });
    assert.deepEqual(taken, Buffer.from('item'));
  });
});
