// Writes guarded by a hold (hold.transaction, lease.transaction), the lease's fencing token,
// and FencingGuard: on the real server, without faults (those are in
// guarded-transaction-faults.test.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  HoldLostError,
  isHoldLost,
  isInvalidArgument,
  op,
  TransactionFailedError,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { killSession, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import {
  FencingGuard,
  InterProcessMutex,
  InterProcessReadWriteLock,
  InterProcessSemaphoreV2,
} from '../src/index.js';
import { OverlapWitness } from './helpers.js';

let server: TestingServer;
let clients: FrameworkClient[];
let a: FrameworkClient;
before(async () => {
  server = await TestingServer.start();
  clients = await Promise.all(Array.from({ length: 2 }, () => connectedClient(server)));
  [a] = clients as [FrameworkClient];
});
after(async () => {
  await closeAll(clients);
  await server.close();
});

/** A target node at version 0 with data `initial`; resolves its path. */
async function target(client: FrameworkClient, initial = 'initial'): Promise<string> {
  return client.create(uniquePath('target'), { data: Buffer.from(initial) });
}

/** The target's data and version, as the server has them. */
async function contents(client: FrameworkClient, path: string): Promise<[string, number]> {
  const { data, stat } = await client.getData(path);
  return [data.toString(), stat.version];
}

describe('hold.transaction', () => {
  it("runs the ops with the holder's check first and resolves their results only", async () => {
    const mutex = new InterProcessMutex(a, uniquePath('guarded'));
    const node = await target(a);
    await using hold = await mutex.acquireHold();
    const results = await hold.transaction([
      op.setData(node, Buffer.from('written'), { version: 0 }),
      op.create(`${node}/child`),
    ]);
    assert.deepEqual(
      results.map((r) => [r.type, r.path]),
      [
        ['setData', node],
        ['create', `${node}/child`],
      ],
    );
    assert.deepEqual(await contents(a, node), ['written', 1]);
    assert.deepEqual(await hold.transaction([]), [], 'no ops: only the check, no results');
  });

  it('withLock and read-lock holds guard their own nodes; a namespaced client checks its own path', async () => {
    const view = a.usingNamespace(uniquePath('ns').slice(1));
    const node = await target(view);
    const mutex = new InterProcessMutex(view, '/lock');
    await mutex.withLock(async (hold) => {
      await hold.transaction([op.setData(node, Buffer.from('from withLock'))]);
    });
    const rw = new InterProcessReadWriteLock(view, '/rw');
    await rw.readLock().withLock(async (hold) => {
      assert.match(hold.lockPath, /__READ__/);
      await hold.transaction([op.setData(node, Buffer.from('from a reader'))]);
    });
    assert.deepEqual(await contents(view, node), ['from a reader', 2]);
  });

  it('a failing op rejects TransactionFailedError indexed as the caller gave the ops; nothing applied', async () => {
    const node = await target(a);
    await using hold = await new InterProcessMutex(a, uniquePath('guarded')).acquireHold();
    const failing = hold.transaction([
      op.setData(node, Buffer.from('no')),
      op.create(node), // exists
    ]);
    await assert.rejects(failing, (error: unknown) => {
      assert.ok(error instanceof TransactionFailedError);
      assert.equal(error.failedOpIndex, 1);
      assert.equal(error.code, 'NODE_EXISTS');
      assert.equal(error.outcomes.length, 2);
      return true;
    });
    assert.deepEqual(await contents(a, node), ['initial', 0]);
    await assert.rejects(
      hold.transaction([op.setData(node, Buffer.from('x')), op.create('relative')]),
      (error: unknown) =>
        isInvalidArgument(error) &&
        /^INVALID_ARGUMENT: relative - op 1 \(create\)/.test((error as Error).message),
    );
  });

  it("the holder's node deleted behind its back: HoldLostError from the server's check (sent), nothing written", async () => {
    const node = await target(a);
    const mutex = new InterProcessMutex(a, uniquePath('guarded'));
    await using hold = await mutex.acquireHold();
    await clients[1]!.delete(hold.lockPath);
    await assert.rejects(
      hold.transaction([op.setData(node, Buffer.from('late')), op.create(`${node}/late`)]),
      (error: unknown) => {
        assert.ok(error instanceof HoldLostError && isHoldLost(error));
        assert.equal(error.code, 'HOLD_LOST');
        assert.equal(error.sent, true);
        assert.equal(error.retryable, false);
        assert.equal(error.path, hold.lockPath);
        assert.ok(error.cause instanceof TransactionFailedError);
        return true;
      },
    );
    assert.deepEqual(await contents(a, node), ['initial', 0]);
    assert.equal(await a.exists(`${node}/late`), null);
  });

  it('after release, or once lost fired, it is refused before anything is sent', async () => {
    const node = await target(a);
    const mutex = new InterProcessMutex(a, uniquePath('guarded'));
    const hold = await mutex.acquireHold();
    const lockHold = mutex.hold!;
    await hold.release();
    for (const released of [hold, lockHold]) {
      await assert.rejects(released.transaction([op.setData(node, Buffer.from('x'))]), (error) => {
        assert.ok(error instanceof HoldLostError);
        assert.equal(error.sent, false);
        assert.match(error.message, /released; nothing was written/);
        return true;
      });
    }
    const victim = await connectedClient(server, { sessionTimeoutMs: 4000 });
    try {
      const lost = await new InterProcessMutex(victim, uniquePath('guarded')).acquireHold();
      await killSession(victim, server.connectString);
      await waitFor(() => lost.lost.aborted, { message: 'lost fired' });
      await assert.rejects(lost.transaction([op.setData(node, Buffer.from('x'))]), (error) => {
        assert.ok(error instanceof HoldLostError);
        assert.equal(error.sent, false);
        assert.equal(error.cause, lost.lost.reason);
        return true;
      });
    } finally {
      await victim.close();
    }
    assert.deepEqual(await contents(a, node), ['initial', 0]);
  });

  it('bad arguments fail fast with InvalidArgumentError', async () => {
    await using hold = await new InterProcessMutex(a, uniquePath('guarded')).acquireHold();
    // @ts-expect-error: not an array
    await assert.rejects(hold.transaction(op.check('/')), isInvalidArgument);
    // @ts-expect-error: not an options object
    await assert.rejects(hold.transaction([], 'idempotent'), isInvalidArgument);
  });
});

describe('lease.transaction and lease tokens', () => {
  it("a lease's token is its node's czxid; leases held at once have distinct tokens", async () => {
    const path = uniquePath('semaphore');
    const semaphore = new InterProcessSemaphoreV2(a, path, 3);
    const leases = await semaphore.acquire(3);
    try {
      for (const lease of leases) {
        assert.equal(lease.fencingToken, (await a.exists(lease.path))!.czxid);
        assert.equal(lease.fencingTokenString, lease.fencingToken.toString());
      }
      const tokens = leases.map((lease) => lease.fencingToken);
      assert.deepEqual(
        tokens,
        [...tokens].sort((x, y) => (x < y ? -1 : 1)),
        'granted in token order',
      );
      assert.equal(new Set(tokens).size, 3);
    } finally {
      await semaphore.returnAll(leases);
    }
  });

  it('writes while held; HoldLostError (sent) once the node is gone; refused after close()', async () => {
    const node = await target(a);
    const semaphore = new InterProcessSemaphoreV2(a, uniquePath('semaphore'), 2);
    const lease = await semaphore.acquire();
    const [result] = await lease.transaction([op.setData(node, Buffer.from('leased'))]);
    assert.equal(result?.type, 'setData');
    await clients[1]!.delete(lease.path);
    await assert.rejects(lease.transaction([op.setData(node, Buffer.from('late'))]), (error) => {
      assert.ok(isHoldLost(error));
      assert.equal((error as HoldLostError).sent, true);
      return true;
    });
    await lease.close();
    await assert.rejects(lease.transaction([op.setData(node, Buffer.from('late'))]), (error) => {
      assert.ok(isHoldLost(error));
      assert.equal((error as HoldLostError).sent, false);
      return true;
    });
    assert.deepEqual(await contents(a, node), ['leased', 1]);
  });

  it("tokens strictly increase over 200 hand-overs among 8 clients (maxLeases 1), each the lease node's czxid, across a delete and re-create of the semaphore's path", async () => {
    const path = uniquePath('semaphore-fencing');
    const many = await Promise.all(Array.from({ length: 8 }, () => connectedClient(server)));
    try {
      const witness = new OverlapWitness();
      const mismatches: string[] = [];
      const leasesParents: bigint[] = [];
      for (const perClient of [12, 13]) {
        await Promise.all(
          many.map(async (client, index) => {
            const semaphore = new InterProcessSemaphoreV2(client, path, 1);
            for (let i = 0; i < perClient; i++) {
              const lease = await semaphore.acquire();
              try {
                witness.enter(`client ${index}`, lease.fencingToken);
                const { stat } = await client.getData(lease.path);
                if (stat.czxid !== lease.fencingToken) {
                  mismatches.push(`${lease.fencingToken} != czxid ${stat.czxid}`);
                }
                witness.exit();
              } finally {
                await lease.close();
              }
            }
          }),
        );
        leasesParents.push((await a.exists(`${path}/leases`))!.czxid);
        await a.delete(path, { deleteChildren: true });
      }
      assert.deepEqual(witness.violations, []);
      assert.deepEqual(mismatches, []);
      assert.equal(witness.handoffs, 200);
      assert.ok(leasesParents[1]! > leasesParents[0]!, 'the path was made again');
    } finally {
      await closeAll(many);
    }
  });
});

describe('FencingGuard', () => {
  it('admits the highest token and equal ones, refuses older; decimal strings compare as numbers', () => {
    const guard = new FencingGuard();
    assert.equal(guard.highest, undefined);
    assert.equal(guard.admit('9'), true);
    assert.equal(guard.admit(10n), true);
    assert.equal(guard.admit('10'), true, 'the same hold writes again');
    assert.equal(guard.admit('9'), false, '"9" is older than 10, whatever the string order');
    assert.equal(guard.admit(4294967302n), true);
    assert.equal(guard.highest, 4294967302n);
    for (const bad of [-1n, '', '1.5', 'x', 5, undefined]) {
      // @ts-expect-error: not a token
      assert.throws(() => guard.admit(bad), isInvalidArgument);
    }
  });
});
