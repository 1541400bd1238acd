// Revocation between Node and Java Curator 5.4 on one mutex and on the halves of a read/write
// lock: requested by Java and honoured by Node, requested by Node and heard by Curator's
// RevocationListener; the nodes' data as each side writes it.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { compileJavaPeer, JavaPeer, TestingServer, timing, uniquePath } from '@zkrecipes/testing';
import { connectedClient } from '@zkrecipes/test-support';
import { InterProcessMutex, InterProcessReadWriteLock, Revoker } from '../src/index.js';

// dist/test/*.test.js -> test/fixtures/*.java in the package's sources.
const peerSource = new URL('../../test/fixtures/CuratorLockPeer.java', import.meta.url).pathname;

describe('revocation with Curator 5.4 (Java)', () => {
  let server: TestingServer;
  let peer: JavaPeer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    [peer, client] = await Promise.all([
      JavaPeer.start({ source: peerSource, args: [server.connectString] }),
      connectedClient(server),
    ]);
  });
  after(async () => {
    await peer.close();
    await client.close();
    await server.close();
    rmSync(await compileJavaPeer(peerSource), { recursive: true, force: true });
  });

  it('Java requests revocation, the Node holder is told and releases, and Java gets the lock', async () => {
    const path = uniquePath('java-revokes');
    const mutex = new InterProcessMutex(client, path);
    let requested = 0;
    mutex.makeRevocable((forLock) => {
      requested += 1;
      void forLock.release();
    });
    assert.equal(await mutex.acquire(0), true);
    const node = mutex.getLockPath()!;
    // Curator writes a revocable node empty; so do we.
    assert.equal(await peer.request(`data ${node}`), 'OK ');
    assert.equal(await peer.request(`mutex j1 ${path}`), 'OK');
    assert.equal(await peer.request(`revoke ${node}`), 'OK');
    assert.equal(await peer.request(`acquire j1 ${timing.ms(10_000)}`), 'OK true');
    assert.equal(requested, 1);
    assert.equal(mutex.isAcquiredInThisProcess(), false);
    assert.equal(await peer.request('release j1'), 'OK');
  });

  it("Node requests revocation of a Java holder's revocable mutex: Curator's listener hears it", async () => {
    const path = uniquePath('node-revokes');
    assert.equal(await peer.request(`mutex j2 ${path}`), 'OK');
    assert.equal(await peer.request('revocable j2'), 'OK');
    assert.equal(await peer.request('acquire j2 -1'), 'OK true');
    const contender = new InterProcessMutex(client, path);
    const [holder] = await contender.getParticipantNodes();
    assert.ok(holder !== undefined);
    assert.equal(await peer.request(`data ${holder}`), 'OK ', 'a revocable Curator node is empty');
    await Revoker.attemptRevoke(client, holder);
    assert.equal(await peer.expectLine(/^EVENT revoke-requested /), 'EVENT revoke-requested j2');
    assert.equal(await peer.request('release j2'), 'OK');
    assert.equal(await contender.acquire(timing.ms(10_000)), true);
    await contender.release();
  });

  it('read/write lock halves: Java revokes a Node write holder, and Node revokes a Java read holder', async () => {
    const path = uniquePath('rw');
    const rw = new InterProcessReadWriteLock(client, path);
    let requested = 0;
    rw.writeLock().makeRevocable((forLock) => {
      requested += 1;
      void forLock.release();
    });
    assert.equal(await rw.writeLock().acquire(0), true);
    const writeNode = rw.writeLock().getLockPath()!;
    assert.equal(await peer.request(`data ${writeNode}`), 'OK ');
    assert.equal(await peer.request(`rwwrite jw ${path}`), 'OK');
    assert.equal(await peer.request(`revoke ${writeNode}`), 'OK');
    assert.equal(await peer.request(`acquire jw ${timing.ms(10_000)}`), 'OK true');
    assert.equal(requested, 1);
    assert.equal(rw.writeLock().isAcquiredInThisProcess(), false);
    assert.equal(await peer.request('release jw'), 'OK');

    // Curator's ReadLock is an InterProcessMutex: makeRevocable, and the same empty node.
    assert.equal(await peer.request(`rwread jr ${path}`), 'OK');
    assert.equal(await peer.request('revocable jr'), 'OK');
    assert.equal(await peer.request('acquire jr -1'), 'OK true');
    const [reader] = await rw.readLock().getParticipantNodes();
    assert.ok(reader !== undefined);
    assert.match(reader, /__READ__\d{10}$/);
    assert.equal(await peer.request(`data ${reader}`), 'OK ', 'a revocable Curator node is empty');
    const writing = rw.writeLock().acquire(timing.ms(10_000));
    await Revoker.attemptRevoke(client, reader);
    assert.equal(await peer.expectLine(/^EVENT revoke-requested /), 'EVENT revoke-requested jr');
    assert.equal(await peer.request('release jr'), 'OK');
    assert.equal(await writing, true);
    await rw.writeLock().release();
  });

  it('plain (not revocable) nodes: Curator writes its default data (the local address), ours is empty; a request does not make a plain holder let go', async () => {
    const path = uniquePath('plain');
    assert.equal(await peer.request(`mutex j3 ${path}`), 'OK');
    assert.equal(await peer.request('acquire j3 -1'), 'OK true');
    const [holder] = await new InterProcessMutex(client, path).getParticipantNodes();
    const javaData = (await peer.request(`data ${holder!}`)).slice(3);
    // Curator's default node data is the local address (CuratorFrameworkFactory's defaultData).
    console.log(
      `a plain Curator lock node holds ${JSON.stringify(Buffer.from(javaData, 'hex').toString())}`,
    );
    assert.ok(javaData.length > 0);
    await Revoker.attemptRevoke(client, holder!);
    assert.equal(
      await peer.request(`data ${holder!}`),
      `OK ${Buffer.from('__REVOKE__').toString('hex')}`,
    );
    assert.equal(await peer.request('held j3'), 'OK true');
    assert.equal(await peer.request('release j3'), 'OK');
    const mutex = new InterProcessMutex(client, path);
    assert.equal(await mutex.acquire(0), true);
    assert.equal(await peer.request(`data ${mutex.getLockPath()!}`), 'OK ');
    await mutex.release();
  });
});
