// Every lock call ends on time while ZooKeeper is unreachable (the server stopped under
// connected clients, or hung), and whatever a call leaves behind is deleted once it is back.
// A file of its own: it stops and restarts its server.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { inspect } from 'node:util';
import { ClosedError, type FrameworkClient } from '@zkrecipes/framework';
import {
  LOOK_ONCE_ANSWER_WAIT_MS,
  OWN_NODE_ANSWER_WAIT_MS,
} from '@zkrecipes/framework/recipe-support';
import { TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import {
  closeAll,
  connectedClient,
  isTimeoutError,
  timed,
  type Timed,
  assertSignalsEndCallsWhilePaused,
  type SignalledCall,
} from '@zkrecipes/test-support';
import {
  InterProcessMultiLock,
  InterProcessMutex,
  InterProcessReadWriteLock,
  InterProcessSemaphoreMutex,
  InterProcessSemaphoreV2,
} from '../src/index.js';
import { tracingClient } from './helpers.js';

/** The value `outcome` resolved with (fails the test when it rejected). */
function resolved<T>(outcome: Timed<T>): T {
  if (!('value' in outcome)) assert.fail(`rejected: ${inspect(outcome.error)}`);
  return outcome.value as T;
}

/** The error `outcome` rejected with (fails the test when it resolved). */
function rejected(outcome: Timed): unknown {
  if (!('error' in outcome)) assert.fail(`resolved: ${inspect(outcome.value)}`);
  return outcome.error;
}

/**
 * Fails unless `ms` is in [lowMs, highMs). `earlyMs` allows for a caller's own timer
 * (`AbortSignal.timeout`): Node counts timers from the event loop's clock as of the start of
 * the current turn, so one may fire that much early by performance.now().
 */
function assertBetween(
  ms: number,
  range: { lowMs: number; highMs: number; earlyMs?: number },
  what: string,
): void {
  const { lowMs, highMs, earlyMs = 0 } = range;
  assert.ok(
    ms >= lowMs - earlyMs && ms < timing.ms(highMs),
    `${what} took ${ms.toFixed(1)} ms (${lowMs}-${highMs})`,
  );
}

describe('locks while ZooKeeper is unreachable', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(() => server.close());

  /** Stops the server and waits until every client noticed. */
  async function stopServer(clients: readonly FrameworkClient[]): Promise<void> {
    await server.stop();
    await waitFor(() => clients.every((client) => !client.isConnected), {
      message: 'every client disconnected',
    });
  }

  describe('with the server stopped under connected clients', () => {
    let a: FrameworkClient;
    let b: FrameworkClient;
    let c: FrameworkClient;
    before(async () => {
      [a, b, c] = (await Promise.all([1, 2, 3].map(() => connectedClient(server)))) as [
        FrameworkClient,
        FrameworkClient,
        FrameworkClient,
      ];
      await stopServer([a, b, c]);
    });
    after(async () => {
      // Closed while the server is down: a client closed while it reconnects can leave the
      // wire client's connect timer behind for a session timeout, holding the test process.
      await closeAll([a, b, c]);
      await server.restart();
    });

    it('acquire(0) answers false in under 100 ms and sends nothing, now or later', async () => {
      const traced = tracingClient(a);
      const mutex = new InterProcessMutex(traced.client, uniquePath('try0'));
      const outcome = await timed(() => mutex.acquire(0));
      assert.equal(resolved(outcome), false);
      assert.ok(outcome.ms < 100, `took ${outcome.ms} ms`);
      assert.deepEqual(traced.calls, [], 'no request, so nothing is queued for later');
    });

    it('acquire(2000) resolves false between 2 and 3 s', async () => {
      const outcome = await timed(() =>
        new InterProcessMutex(a, uniquePath('t2000')).acquire(2000),
      );
      assert.equal(resolved(outcome), false);
      assertBetween(outcome.ms, { lowMs: 2000, highMs: 3000 }, 'acquire(2000)');
    });

    it('acquire(undefined, { signal: AbortSignal.timeout(1000) }) rejects with a TimeoutError in 1-2 s; so does withLock', async () => {
      const path = uniquePath('signal');
      const acquiring = timed(() =>
        new InterProcessMutex(a, path).acquire(undefined, { signal: AbortSignal.timeout(1000) }),
      );
      let ran = false;
      const locking = timed(() =>
        new InterProcessMutex(b, path).withLock(
          () => {
            ran = true;
          },
          { signal: AbortSignal.timeout(1000) },
        ),
      );
      for (const outcome of [await acquiring, await locking]) {
        assert.ok(isTimeoutError(rejected(outcome)), inspect(outcome));
        assertBetween(outcome.ms, { lowMs: 1000, highMs: 2000, earlyMs: 5 }, 'the aborted acquire');
      }
      assert.equal(ran, false);
    });

    it('read/write lock, semaphore, semaphore mutex and multi-lock: acquire(0) at once, a timeout on time', async () => {
      const rw = new InterProcessReadWriteLock(a, uniquePath('rw'));
      const semaphore = new InterProcessSemaphoreV2(a, uniquePath('semaphore'), 2);
      const semaphoreMutex = new InterProcessSemaphoreMutex(a, uniquePath('semaphore-mutex'));
      const multi = new InterProcessMultiLock(a, [uniquePath('multi-1'), uniquePath('multi-2')]);
      const tries: (() => Promise<unknown>)[] = [
        () => rw.readLock().acquire(0),
        () => rw.writeLock().acquire(0),
        () => semaphore.acquire(1, 0),
        () => semaphoreMutex.acquire(0),
        () => multi.acquire(0),
      ];
      for (const [index, start] of tries.entries()) {
        const outcome: Timed = await timed(start);
        assert.ok(!resolved(outcome), `try ${index}`);
        assert.ok(outcome.ms < 100, `try ${index} took ${outcome.ms} ms`);
      }
      const waits: Timed[] = await Promise.all([
        timed(() => rw.readLock().acquire(1500)),
        timed(() => rw.writeLock().acquire(1500)),
        timed(() => semaphore.acquire(2, 1500)),
        timed(() => semaphoreMutex.acquire(1500)),
        timed(() => multi.acquire(1500)),
      ]);
      for (const [index, outcome] of waits.entries()) {
        assert.ok(!resolved(outcome), `wait ${index}`);
        assertBetween(outcome.ms, { lowMs: 1500, highMs: 2500 }, `wait ${index}`);
      }
    });

    it('a waiting acquire rejects with ClosedError when its client closes', async () => {
      const waiting = timed(() => new InterProcessMutex(c, uniquePath('closing')).acquire());
      const semaphoreWaiting = timed(() =>
        new InterProcessSemaphoreV2(c, uniquePath('closing-semaphore'), 1).acquire(),
      );
      const closing = timed(() => c.close());
      for (const outcome of [await waiting, await semaphoreWaiting]) {
        assert.ok(rejected(outcome) instanceof ClosedError, inspect(outcome));
      }
      assert.ok((await closing).ms < 2000, 'close() is prompt');
    });
  });

  describe('the server stops under a call and comes back', () => {
    /**
     * Waits until `node` is gone, within the 30 s session timeout, on the session that made it:
     * our delete removed it, not an expiry. (Reconnecting can take up to connectionTimeoutMs
     * when the first attempt meets the server still starting.)
     */
    async function deletedBySession(client: FrameworkClient, node: string, session: unknown) {
      await waitFor(async () => (await client.exists(node)) === null, {
        timeoutMs: 25_000,
        message: `${node} deleted`,
      });
      assert.equal(client.sessionId, session, 'the same session: deleted, not expired');
    }

    afterEach(async () => {
      // A failed test must not leave the next one without a server.
      if (server.paused) server.resume();
      if (!server.running) await server.restart();
    });

    it('release of a held mutex during the outage resolves in under 1 s; the node is deleted once the server is back', async () => {
      const client = await connectedClient(server);
      try {
        const mutex = new InterProcessMutex(client, uniquePath('release'));
        await mutex.acquire();
        const node = mutex.getLockPath()!;
        const session = client.sessionId;
        await stopServer([client]);
        const outcome = await timed(() => mutex.release());
        resolved(outcome);
        assert.ok(outcome.ms < 1000, `release took ${outcome.ms} ms`);
        assert.equal(mutex.isAcquiredInThisProcess(), false);
        await server.restart();
        // Well within the 30 s session timeout, on the same session: our delete, not an expiry.
        await deletedBySession(client, node, session);
      } finally {
        await client.close();
      }
    });

    it("the server stops inside withLock's fn: withLock resolves with fn's value; the node is deleted once the server is back", async () => {
      const client = await connectedClient(server);
      try {
        const mutex = new InterProcessMutex(client, uniquePath('with-lock'));
        const session = client.sessionId;
        let node: string | undefined;
        const outcome = await timed(() =>
          mutex.withLock(async (hold) => {
            node = hold.lockPath;
            await stopServer([client]);
            return 'done';
          }),
        );
        assert.equal(resolved(outcome), 'done');
        await server.restart();
        await deletedBySession(client, node!, session);
      } finally {
        await client.close();
      }
    });

    it('an acquire that timed out while the server was down leaves no node once it is back', async () => {
      const path = uniquePath('timed-out');
      const holderClient = await connectedClient(server);
      const waiterClient = await connectedClient(server);
      try {
        const holder = new InterProcessMutex(holderClient, path);
        await holder.acquire();
        const waiter = new InterProcessMutex(waiterClient, path);
        const waiting = timed(() => waiter.acquire(1500));
        await waitFor(async () => (await holderClient.getChildren(path)).length === 2, {
          message: 'the waiter queued',
        });
        const [, waiterNode] = await holder.getParticipantNodes();
        const session = waiterClient.sessionId;
        await stopServer([holderClient, waiterClient]);
        const outcome = await waiting;
        assert.equal(resolved(outcome), false);
        assertBetween(outcome.ms, { lowMs: 1500, highMs: 2500 }, 'acquire(1500)');
        await server.restart();
        await deletedBySession(waiterClient, waiterNode!, session);
        assert.deepEqual(await holder.getParticipantNodes(), [holder.getLockPath()]);
        await holder.release();
      } finally {
        await closeAll([holderClient, waiterClient]);
      }
    });

    it('release() with the server just paused (the link still reads as connected): resolves within the own-node answer wait; the node goes once the server answers', async () => {
      const client = await connectedClient(server, { sessionTimeoutMs: 10_000 });
      const path = uniquePath('paused-release');
      const mutex = new InterProcessMutex(client, path);
      try {
        assert.equal(await mutex.acquire(5000), true);
        const node = mutex.getLockPath();
        assert.ok(node !== undefined);
        await server.pause();
        const outcome = await timed(() => mutex.release());
        server.resume();
        resolved(outcome);
        assertBetween(
          outcome.ms,
          { lowMs: 0, highMs: OWN_NODE_ANSWER_WAIT_MS + 500 },
          'release() on a paused server',
        );
        await waitFor(async () => (await client.exists(node)) === null, {
          message: 'the lock node deleted once the server answers',
        });
      } finally {
        await client.close();
      }
    });

    it('server paused under a multi-lock acquire(1500) that took two of its three locks, a held multi-lock of three and three leases: the acquire answers false on time; release() and returnAll() each take one own-node answer wait, not one per lock; every node goes once the server answers', async () => {
      const [client, holder] = await Promise.all([
        connectedClient(server, { sessionTimeoutMs: 10_000 }),
        connectedClient(server, { sessionTimeoutMs: 10_000 }),
      ]);
      const a = uniquePath('paused-multi-a');
      const b = uniquePath('paused-multi-b');
      const c = uniquePath('paused-multi-c');
      const heldPaths = ['d', 'e', 'f'].map((name) => uniquePath(`paused-multi-${name}`));
      const leasePath = uniquePath('paused-leases');
      try {
        assert.equal(await new InterProcessMutex(holder, c).acquire(5000), true);
        const held = new InterProcessMultiLock(client, heldPaths);
        assert.equal(await held.acquire(5000), true);
        const semaphore = new InterProcessSemaphoreV2(client, leasePath, 3);
        const leases = await semaphore.acquire(3);
        const acquiring = timed(() => new InterProcessMultiLock(client, [a, b, c]).acquire(1500));
        await waitFor(async () => (await holder.getChildren(b).catch(() => [])).length === 1, {
          message: 'the multi-lock holds its first two locks and waits for the third',
        });
        await server.pause();
        const [released, returned] = await Promise.all([
          timed(() => held.release()),
          timed(() => semaphore.returnAll(leases)),
        ]);
        const acquired = await acquiring;
        server.resume();
        assert.equal(resolved(acquired), false);
        assertBetween(acquired.ms, { lowMs: 1500, highMs: 2000 }, 'acquire(1500)');
        for (const [what, outcome] of [
          ['release() of three locks', released],
          ['returnAll() of three leases', returned],
        ] as const) {
          resolved(outcome);
          assertBetween(outcome.ms, { lowMs: 0, highMs: OWN_NODE_ANSWER_WAIT_MS + 500 }, what);
        }
        await waitFor(
          async () => {
            const paths = [a, b, ...heldPaths, `${leasePath}/leases`];
            const left = await Promise.all(paths.map((path) => client.getChildren(path)));
            return left.every((children) => children.length === 0);
          },
          { message: 'every lock and lease node deleted once the server answers' },
        );
      } finally {
        await closeAll([client, holder]);
      }
    });

    it('acquire(0) on a connection that stops answering (server paused, the link still reads as connected): false within the look-once answer wait, long before the connection is declared dead; nothing is left once the server answers', async () => {
      // A 30 s session: the liveness check would declare the connection dead only after 20 s.
      const client = await connectedClient(server, { sessionTimeoutMs: 30_000 });
      const [mutexPath, semaphorePath, a, b] = ['mutex', 'semaphore', 'multi-a', 'multi-b'].map(
        (name) => uniquePath(`paused-try-${name}`),
      );
      try {
        await server.pause();
        const outcomes = await Promise.all([
          timed(() => new InterProcessMutex(client, mutexPath!).acquire(0)),
          timed(() => new InterProcessSemaphoreV2(client, semaphorePath!, 1).acquire(1, 0)),
          timed(() => new InterProcessMultiLock(client, [a!, b!]).acquire(0)),
        ]);
        assert.equal(client.isConnected, true, 'still reads as connected');
        server.resume();
        const [mutex, semaphore, multi] = outcomes;
        assert.equal(resolved(mutex), false);
        assert.equal(resolved(semaphore), undefined);
        assert.equal(resolved(multi), false);
        for (const [what, outcome] of [
          ['mutex acquire(0)', mutex],
          ['semaphore acquire(1, 0)', semaphore],
          ['multi-lock acquire(0)', multi],
        ] as const) {
          assertBetween(outcome.ms, { lowMs: 0, highMs: LOOK_ONCE_ANSWER_WAIT_MS + 500 }, what);
        }
        await waitFor(
          async () => {
            const left = await Promise.all(
              [mutexPath!, `${semaphorePath!}/leases`, `${semaphorePath!}/locks`, a!, b!].map(
                (path) => client.getChildren(path).catch(() => []),
              ),
            );
            return left.every((names) => names.length === 0);
          },
          { message: 'nothing left once the server answers' },
        );
      } finally {
        if (server.paused) server.resume();
        await client.close();
      }
    });

    it('server paused (the link still reads as connected): getParticipantNodes of a mutex, both read/write halves and a semaphore, and Lease.getData, given { signal: AbortSignal.timeout(1000) }, reject with its TimeoutError in 1 to 1.5 s; an aborted signal rejects at once; after the resume the same calls without a signal answer right', async (t) => {
      // A 30 s session: the liveness check would call the connection dead only after 20 s.
      const client = await connectedClient(server, { sessionTimeoutMs: 30_000 });
      const mutex = new InterProcessMutex(client, uniquePath('paused-query-mutex'));
      const rw = new InterProcessReadWriteLock(client, uniquePath('paused-query-rw'));
      const semaphore = new InterProcessSemaphoreV2(client, uniquePath('paused-query-sem'), 2, {
        nodeData: Buffer.from('lease data'),
      });
      try {
        assert.equal(await mutex.acquire(5000), true);
        assert.equal(await rw.readLock().acquire(5000), true);
        const [lease] = await semaphore.acquire(1);
        assert.ok(lease !== undefined);
        const queries: SignalledCall[] = [
          ['mutex.getParticipantNodes', (signal) => mutex.getParticipantNodes({ signal })],
          [
            'readLock.getParticipantNodes',
            (signal) => rw.readLock().getParticipantNodes({ signal }),
          ],
          [
            'writeLock.getParticipantNodes',
            (signal) => rw.writeLock().getParticipantNodes({ signal }),
          ],
          ['semaphore.getParticipantNodes', (signal) => semaphore.getParticipantNodes({ signal })],
          ['lease.getData', (signal) => lease.getData({ signal })],
        ];
        await assertSignalsEndCallsWhilePaused(server, client, queries, {
          diagnostic: (message) => t.diagnostic(message),
        });
        assert.deepEqual(await mutex.getParticipantNodes(), [mutex.getLockPath()]);
        assert.deepEqual(await rw.readLock().getParticipantNodes(), [rw.readLock().getLockPath()]);
        assert.deepEqual(await rw.writeLock().getParticipantNodes(), []);
        assert.deepEqual(await semaphore.getParticipantNodes(), [lease.nodeName]);
        assert.deepEqual(await lease.getData(), Buffer.from('lease data'));
        await Promise.all([mutex.release(), rw.readLock().release(), lease.close()]);
      } finally {
        if (server.paused) server.resume();
        await client.close();
      }
    });
  });
});
