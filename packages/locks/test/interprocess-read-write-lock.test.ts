import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import { IllegalMonitorStateError, InterProcessReadWriteLock, runInFlow } from '../src/index.js';
import { watchersOf } from './helpers.js';

const READ_NODE = /^_c_[0-9a-f-]{36}-__READ__\d{10}$/;
const WRITE_NODE = /^_c_[0-9a-f-]{36}-__WRIT__\d{10}$/;

function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

describe('InterProcessReadWriteLock', () => {
  let server: TestingServer;
  let clients: FrameworkClient[];
  before(async () => {
    server = await TestingServer.start();
    clients = await Promise.all(Array.from({ length: 10 }, () => connectedClient(server)));
  });
  after(async () => {
    await closeAll(clients);
    await server.close();
  });

  it('8 readers hold it at once; a writer waits for all of them and then excludes everyone', async () => {
    const path = uniquePath('readers');
    const readers = clients
      .slice(0, 8)
      .map((client) => new InterProcessReadWriteLock(client, path));
    await Promise.all(readers.map((rw) => rw.readLock().acquire()));
    assert.ok(
      readers.every((rw) => rw.readLock().isAcquiredInThisProcess()),
      'all 8 hold',
    );
    const readerTokens = readers.map((rw) => rw.readLock().hold!.fencingToken);
    const nodes = await readers[0]!.readLock().getParticipantNodes();
    assert.equal(nodes.length, 8);
    assert.ok(nodes.every((node) => READ_NODE.test(nameOf(node))));

    const writer = new InterProcessReadWriteLock(clients[8]!, path).writeLock();
    let notYetReleasing = readers.length;
    const writing = writer.acquire().then(() => notYetReleasing);
    await waitFor(async () => (await writer.getParticipantNodes()).length === 1, {
      message: 'the writer queued',
    });
    assert.match(
      nameOf(writer.getLockPath() ?? (await writer.getParticipantNodes())[0]!),
      WRITE_NODE,
    );
    for (const rw of readers) {
      notYetReleasing--;
      await rw.readLock().release();
    }
    assert.equal(await writing, 0, 'the writer got it only after every reader let go');
    assert.equal(new Set(readerTokens).size, 8, 'overlapping readers have distinct tokens');
    assert.ok(readerTokens.every((token) => writer.hold!.fencingToken > token));

    const late = new InterProcessReadWriteLock(clients[9]!, path);
    assert.equal(await late.readLock().acquire(0), false, 'a writer excludes readers');
    assert.equal(await late.writeLock().acquire(0), false, 'and writers');
    await writer.release();
    assert.equal(await late.readLock().acquire(0), true);
    await late.readLock().release();
  });

  it('a queued writer stops later readers (fair): they wait behind it', async () => {
    const path = uniquePath('fair');
    const [first, writerSide, later] = clients.map(
      (client) => new InterProcessReadWriteLock(client, path),
    );
    await first!.readLock().acquire();
    const order: string[] = [];
    const writing = writerSide!
      .writeLock()
      .acquire()
      .then(async () => {
        order.push('writer');
        await writerSide!.writeLock().release();
      });
    await waitFor(async () => (await first!.writeLock().getParticipantNodes()).length === 1, {
      message: 'the writer queued',
    });
    assert.equal(await later!.readLock().acquire(0), false);
    const reading = later!
      .readLock()
      .acquire()
      .then(async () => {
        order.push('reader');
        await later!.readLock().release();
      });
    await waitFor(async () => (await first!.readLock().getParticipantNodes()).length === 2, {
      message: 'the later reader queued',
    });
    await first!.readLock().release();
    await Promise.all([writing, reading]);
    assert.deepEqual(order, ['writer', 'reader']);
  });

  it('downgrade (write, then read, then release write) stays exclusive against a queued writer', async () => {
    const path = uniquePath('downgrade');
    const rw = new InterProcessReadWriteLock(clients[0]!, path);
    const queued = new InterProcessReadWriteLock(clients[1]!, path).writeLock();
    const reader = new InterProcessReadWriteLock(clients[2]!, path).readLock();
    await runInFlow(async () => {
      await rw.writeLock().acquire();
      const writeNode = rw.writeLock().getLockPath()!;
      let queuedHolds = false;
      const queuedWriting = queued.acquire().then(() => (queuedHolds = true));
      await waitFor(async () => (await watchersOf(server, writeNode)).length === 1, {
        message: 'the second writer watching the first',
      });

      assert.equal(await rw.readLock().acquire(0), true, 'the write holder reads at once');
      const readNode = rw.readLock().getLockPath()!;
      // Curator 5.5+: a plain ephemeral in the write node's place, not a new sequence.
      assert.equal(readNode.slice(-10), writeNode.slice(-10));
      assert.match(nameOf(readNode), READ_NODE);
      const readStat = (await clients[0]!.exists(readNode))!;
      assert.equal(readStat.ephemeralOwner, clients[0]!.sessionId);
      // The read node was made after the queued writer's: it keeps the write hold's token, so
      // tokens still grow in lock order.
      const writeToken = rw.writeLock().hold!.fencingToken;
      assert.equal(rw.readLock().hold!.fencingToken, writeToken);
      const [, queuedNode] = await queued.getParticipantNodes();
      assert.ok(readStat.czxid > (await clients[0]!.exists(queuedNode!))!.czxid);
      await rw.writeLock().release();

      await waitFor(
        async () =>
          (await clients[0]!.exists(writeNode)) === null &&
          (await watchersOf(server, readNode)).length === 1,
        { message: 'the queued writer waiting on the downgraded read node' },
      );
      assert.equal(queuedHolds, false, 'the queued writer did not slip in');
      assert.equal(await reader.acquire(0), false, 'readers still queue behind the writer');
      await rw.readLock().release();
      await queuedWriting;
      assert.equal(queuedHolds, true);
      assert.ok(queued.hold!.fencingToken > writeToken);
      await queued.release();
    });
  });

  it('an upgrade (read, then write) is refused with a clear error instead of deadlocking', async () => {
    const path = uniquePath('upgrade');
    const rw = new InterProcessReadWriteLock(clients[0]!, path);
    await rw.readLock().withLock(async () => {
      await assert.rejects(rw.writeLock().acquire(), IllegalMonitorStateError);
      await assert.rejects(rw.writeLock().acquire(0), /cannot upgrade a read lock/);
      assert.equal((await rw.writeLock().getParticipantNodes()).length, 0, 'no write node made');
      assert.equal(rw.readLock().isOwnedByCurrentFlow(), true);
    });
    assert.deepEqual(await clients[0]!.getChildren(path), []);
  });

  it('both halves are reentrant within a flow, and a writer may read reentrantly', async () => {
    const path = uniquePath('reentrant');
    const rw = new InterProcessReadWriteLock(clients[0]!, path);
    const other = new InterProcessReadWriteLock(clients[1]!, path);
    await rw.writeLock().withLock(async () => {
      await rw.writeLock().withLock(async () => {
        await rw.readLock().withLock(async () => {
          await rw.readLock().withLock(() => undefined);
          assert.equal(await other.readLock().acquire(0), false);
        });
      });
      assert.equal((await clients[0]!.getChildren(path)).length, 1, 'the read node is gone');
    });
    assert.deepEqual(await clients[0]!.getChildren(path), []);
  });
});
