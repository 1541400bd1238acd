// Interop with real Apache Curator 5.4 (Debian's libcurator-recipes-java) on the same paths:
// the Java peer in fixtures/CuratorLockPeer.java runs Curator's own lock classes.
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { compileJavaPeer, JavaPeer, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import {
  InterProcessMutex,
  InterProcessReadWriteLock,
  InterProcessSemaphoreMutex,
  LockName,
  runInFlow,
  sortParticipants,
} from '../src/index.js';
import { OverlapWitness, watchersOf } from './helpers.js';

// dist/test/interop.test.js -> test/fixtures/*.java in the package's sources.
const peerSource = new URL('../../test/fixtures/CuratorLockPeer.java', import.meta.url).pathname;
const LOCK_NODE = /^_c_[0-9a-f-]{36}-lock-\d{10}$/;

function names(paths: readonly string[]): string[] {
  return paths.map((path) => path.slice(path.lastIndexOf('/') + 1));
}

/** An exclusive-create file: creating it while it exists means two holders at once. */
function enterWitness(file: string): boolean {
  try {
    closeSync(openSync(file, 'wx'));
    return true;
  } catch {
    return false;
  }
}

describe('interop with Curator 5.4 (Java)', () => {
  let server: TestingServer;
  let peer: JavaPeer;
  let classesDir: string;
  let witnessDir: string;
  let clients: FrameworkClient[];
  let a: FrameworkClient;
  let counter = 0;
  const javaName = (): string => `j${++counter}`;

  before(async () => {
    server = await TestingServer.start();
    classesDir = await compileJavaPeer(peerSource);
    peer = await JavaPeer.start({ source: peerSource, args: [server.connectString] });
    witnessDir = mkdtempSync(join(tmpdir(), 'zkrecipes-locks-witness-'));
    clients = await Promise.all(Array.from({ length: 4 }, () => connectedClient(server)));
    a = clients[0]!;
  });
  after(async () => {
    await closeAll(clients);
    await peer.close();
    await server.close();
    rmSync(witnessDir, { recursive: true, force: true });
    rmSync(classesDir, { recursive: true, force: true });
  });

  it("InterProcessMutex: a Java holder makes our acquire(0) false and ours makes Java's false", async () => {
    const path = uniquePath('interop-mutex');
    const java = javaName();
    assert.equal(await peer.request(`mutex ${java} ${path}`), 'OK');
    assert.equal(await peer.request(`acquire ${java} -1`), 'OK true');
    const mutex = new InterProcessMutex(a, path);
    assert.equal(await mutex.acquire(0), false);
    const [javaNode] = await a.getChildren(path);
    assert.match(javaNode!, LOCK_NODE, 'Curator names its node as we do');
    assert.equal(await peer.request(`release ${java}`), 'OK');

    assert.equal(await mutex.acquire(0), true);
    assert.equal(await peer.request(`acquire ${java} 0`), 'OK false');
    // A Java waiter queues behind us and gets it when we let go...
    assert.equal(await peer.request(`acquire-async ${java}`), 'OK');
    await waitFor(async () => (await watchersOf(server, mutex.getLockPath()!)).length === 1, {
      message: 'the Java waiter watching our node',
    });
    await mutex.release();
    await peer.expectLine(new RegExp(`^EVENT acquired ${java}$`));
    // ...and we queue behind Java.
    const waiting = mutex.acquire();
    await waitFor(async () => (await a.getChildren(path)).length === 2, {
      message: 'our waiter queued',
    });
    assert.equal(await peer.request(`release ${java}`), 'OK');
    assert.equal(await waiting, true);
    await mutex.release();
  });

  it('4 Java + 4 Node contenders, 200 handoffs on one path: never two holders (exclusive-create witness)', async () => {
    const path = uniquePath('interop-contended');
    const witness = join(witnessDir, `${counter++}.held`);
    assert.equal(await peer.request(`contend ${path} 4 25 ${witness}`), 'OK');
    const javaDone = peer.expectLine(/^EVENT contend-(done|error)/);
    let nodeViolations = 0;
    const tokens = new OverlapWitness();
    await Promise.all(
      clients.map(async (client, index) => {
        const mutex = new InterProcessMutex(client, path);
        for (let i = 0; i < 25; i++) {
          await mutex.acquire();
          try {
            if (!enterWitness(witness)) nodeViolations++;
            tokens.enter(`node ${index}`, mutex.hold!.fencingToken);
            await new Promise<void>((resolve) => setImmediate(resolve));
            tokens.exit();
            unlinkSync(witness);
          } finally {
            await mutex.release();
          }
        }
      }),
    );
    const [, javaViolations, javaCycles] = (await javaDone).split(' ').slice(1);
    assert.equal(javaViolations, '0', 'Java saw no overlap');
    assert.equal(javaCycles, '100');
    assert.equal(nodeViolations, 0, 'Node saw no overlap');
    assert.deepEqual(tokens.violations, [], 'our fencing tokens grew across the mixed handoffs');
    assert.equal(tokens.handoffs, 100);
    assert.deepEqual(await a.getChildren(path), []);
  });

  it("node names: ours parse with Curator's sorter and Curator's with ours (same order)", async () => {
    const mutexPath = uniquePath('interop-sort');
    const rwPath = uniquePath('interop-sort-rw');
    const javaLocks = [javaName(), javaName(), javaName(), javaName()];
    const holder = new InterProcessMutex(a, mutexPath);
    await holder.acquire();
    const writer = new InterProcessReadWriteLock(a, rwPath).writeLock();
    await writer.acquire();
    const pending: Promise<boolean>[] = [];
    for (const [i, java] of javaLocks.entries()) {
      const kind =
        i < 2 ? `mutex ${java} ${mutexPath}` : `rw${i === 2 ? 'read' : 'write'} ${java} ${rwPath}`;
      assert.equal(await peer.request(kind), 'OK');
      assert.equal(await peer.request(`acquire-async ${java}`), 'OK');
      // interleave one of ours after each Java waiter
      const ours =
        i < 2
          ? new InterProcessMutex(clients[i + 1]!, mutexPath)
          : i === 2
            ? new InterProcessReadWriteLock(clients[1]!, rwPath).readLock()
            : new InterProcessReadWriteLock(clients[2]!, rwPath).writeLock();
      const queued = i < 2 ? mutexPath : rwPath;
      const expected = i < 2 ? 2 + 2 * i : 2 + 2 * (i - 2);
      await waitFor(async () => (await a.getChildren(queued)).length === expected, {
        message: `Java waiter ${i} queued`,
      });
      pending.push(
        ours.acquire(60_000).then(async (held) => {
          await ours.release();
          return held;
        }),
      );
      await waitFor(async () => (await a.getChildren(queued)).length === expected + 1, {
        message: `our waiter ${i} queued`,
      });
    }
    const curatorMutexOrder = (await peer.request(`sort ${mutexPath} mutex`)).slice(3).split(',');
    assert.equal(curatorMutexOrder.length, 5);
    assert.deepEqual(
      sortParticipants(await a.getChildren(mutexPath), [LockName.MUTEX]),
      curatorMutexOrder,
    );
    assert.deepEqual(names(await holder.getParticipantNodes()), curatorMutexOrder);
    const curatorRwOrder = (await peer.request(`sort ${rwPath} rw`)).slice(3).split(',');
    assert.equal(curatorRwOrder.length, 5);
    assert.deepEqual(
      sortParticipants(await a.getChildren(rwPath), [LockName.READ, LockName.WRITE]),
      curatorRwOrder,
    );

    // Let everybody through, in queue order.
    await holder.release();
    await writer.release();
    for (const java of javaLocks) {
      await peer.expectLine(new RegExp(`^EVENT acquired ${java}$`));
      assert.equal(await peer.request(`release ${java}`), 'OK');
    }
    assert.deepEqual(await Promise.all(pending), [true, true, true, true]);
  });

  it('InterProcessReadWriteLock: Java and Node readers share; a writer of either excludes readers of the other', async () => {
    const path = uniquePath('interop-rw');
    const [javaReader, javaWriter] = [javaName(), javaName()];
    assert.equal(await peer.request(`rwread ${javaReader} ${path}`), 'OK');
    assert.equal(await peer.request(`rwwrite ${javaWriter} ${path}`), 'OK');
    const rw = new InterProcessReadWriteLock(a, path);

    assert.equal(await peer.request(`acquire ${javaReader} -1`), 'OK true');
    assert.equal(await rw.readLock().acquire(0), true, 'readers share');
    assert.equal(await peer.request(`acquire ${javaWriter} 0`), 'OK false');
    await rw.readLock().release();
    assert.equal(await peer.request(`release ${javaReader}`), 'OK');

    assert.equal(await peer.request(`acquire ${javaWriter} -1`), 'OK true');
    assert.equal(await rw.readLock().acquire(0), false, 'a Java writer excludes our readers');
    assert.equal(await rw.writeLock().acquire(0), false);
    assert.equal(await peer.request(`release ${javaWriter}`), 'OK');

    assert.equal(await rw.writeLock().acquire(0), true);
    assert.equal(
      await peer.request(`acquire ${javaReader} 0`),
      'OK false',
      'ours excludes Java readers',
    );
    await rw.writeLock().release();
    assert.deepEqual(await a.getChildren(path), []);
  });

  it('downgrade with 5.5+ naming: a queued Curator 5.4 writer does not slip in when our write lock goes', async () => {
    const path = uniquePath('interop-downgrade');
    const javaWriter = javaName();
    assert.equal(await peer.request(`rwwrite ${javaWriter} ${path}`), 'OK');
    const rw = new InterProcessReadWriteLock(a, path);
    await runInFlow(async () => {
      await rw.writeLock().acquire();
      const writeNode = rw.writeLock().getLockPath()!;
      assert.equal(await peer.request(`acquire-async ${javaWriter}`), 'OK');
      await waitFor(async () => (await watchersOf(server, writeNode)).length === 1, {
        message: 'the Java writer watching our write node',
      });
      await rw.readLock().acquire();
      const readNode = rw.readLock().getLockPath()!;
      await rw.writeLock().release();
      await waitFor(
        async () =>
          (await a.exists(writeNode)) === null && (await watchersOf(server, readNode)).length === 1,
        { message: 'the Java writer waiting on our downgraded read node' },
      );
      assert.equal(await peer.request(`held ${javaWriter}`), 'OK false', 'it did not slip in');
      await rw.readLock().release();
    });
    await peer.expectLine(new RegExp(`^EVENT acquired ${javaWriter}$`));
    assert.equal(await peer.request(`release ${javaWriter}`), 'OK');
  });

  it('InterProcessSemaphoreMutex: Java and Node exclude each other on the locks/ + leases/ layout', async () => {
    const path = uniquePath('interop-semaphore');
    const java = javaName();
    assert.equal(await peer.request(`semmutex ${java} ${path}`), 'OK');
    const mutex = new InterProcessSemaphoreMutex(a, path);
    assert.equal(await peer.request(`acquire ${java} -1`), 'OK true');
    assert.equal(await mutex.acquire(0), false);
    assert.equal(await mutex.acquire(100), false);
    assert.equal(await peer.request(`release ${java}`), 'OK');
    assert.equal(await mutex.acquire(0), true);
    assert.equal(await peer.request(`acquire ${java} 200`), 'OK false');
    await mutex.release();
    assert.equal(await peer.request(`acquire ${java} 0`), 'OK true');
    assert.equal(await peer.request(`release ${java}`), 'OK');
  });
});
