// The fencing token and the guarded writes of a leadership (LeaderSelector's takeLeadership
// argument, LeaderLatch's currentLeadership), on the real server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  HoldLostError,
  isClosed,
  isHoldLost,
  joinPath,
  op,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { sortParticipants } from '@zkrecipes/locks';
import { killSession, TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import { LeaderLatch } from '../src/leader-latch.js';
import { LeaderSelector } from '../src/leader-selector.js';
import type { Leadership } from '../src/leadership.js';
import { deferred } from './helpers.js';

/** `promise`, or a rejection naming `what` when it takes longer than `ms` (scaled). */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), timing.ms(ms));
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One trial: a leader ('session' policy) whose session is killed; once the server dropped the
 * session and the leader's client saw its connection go, the leader (its signal not aborted
 * unless LOST came first) makes a guarded write. Resolves what that write rejected with and
 * the target's data and version once the successor wrote it.
 */
async function killedLeaderTrial(
  server: TestingServer,
): Promise<{ stale: unknown; target: [string, number] }> {
  const path = uniquePath('killed-leader');
  const leaderClient = await connectedClient(server, {
    errorPolicy: 'session',
    sessionTimeoutMs: 2000,
  });
  const successorClient = await connectedClient(server);
  const selectors: LeaderSelector[] = [];
  const go = deferred();
  try {
    const target = await successorClient.create(uniquePath('target'), {
      data: Buffer.from('initial'),
    });
    const stale = deferred<unknown>();
    selectors.push(
      new LeaderSelector(leaderClient, path, async (_signal, leadership) => {
        // Not before the session is gone: a leader that reconnects between killSession's
        // takeover and its close wins its session back, and its write then lands, rightly.
        await go.promise;
        stale.resolve(
          await leadership
            .transaction([op.setData(target, Buffer.from('stale'))])
            .catch((error: unknown) => error),
        );
      }),
    );
    await selectors[0]!.start();
    await waitFor(() => selectors[0]!.isLeader, { message: 'the first leads' });
    const successorWrote = deferred<unknown>();
    selectors.push(
      new LeaderSelector(successorClient, path, async (_signal, leadership) => {
        successorWrote.resolve(
          await leadership
            .transaction([op.setData(target, Buffer.from('successor'), { version: 0 })])
            .catch((error: unknown) => error),
        );
      }),
    );
    await selectors[1]!.start();
    await waitFor(async () => (await successorClient.getChildren(path)).length === 2, {
      message: 'the successor queued',
    });
    const session = leaderClient.sessionId;
    await killSession(leaderClient, server.connectString);
    await waitFor(() => !leaderClient.isConnected || leaderClient.sessionId !== session, {
      message: "the leader's client saw its connection go",
    });
    go.resolve();
    const error = await within(stale.promise, 10_000, "the old leader's write");
    const successorError = await within(successorWrote.promise, 10_000, "the successor's write");
    if (successorError instanceof Error) {
      throw new Error(`the successor's write failed; the old leader's: ${String(error)}`, {
        cause: successorError,
      });
    }
    const { data, stat } = await successorClient.getData(target);
    return { stale: error, target: [data.toString(), stat.version] };
  } finally {
    go.resolve(); // a takeLeadership still waiting returns, so close() does not wait for it
    await Promise.all(selectors.map((selector) => selector.close()));
    await closeAll([leaderClient, successorClient]);
  }
}

/** Tokens in the order the leaderships started: every one must exceed the one before. */
class TokenLog {
  readonly tokens: bigint[] = [];
  readonly violations: string[] = [];

  add(who: string, token: bigint): void {
    const last = this.tokens.at(-1);
    if (last !== undefined && token <= last) {
      this.violations.push(`${who} led with token ${token} after ${last}`);
    }
    this.tokens.push(token);
  }
}

describe('Leadership fencing tokens and guarded writes', () => {
  let server: TestingServer;
  let clients: FrameworkClient[];
  before(async () => {
    server = await TestingServer.start();
    clients = await Promise.all(Array.from({ length: 8 }, () => connectedClient(server)));
  });
  after(async () => {
    await closeAll(clients);
    await server.close();
  });

  it("LeaderSelector: 200 hand-overs among 8 clients, across a delete and re-create of the election path: tokens strictly increase, each is the leader's node's czxid, and every leader's guarded write lands", async () => {
    const path = uniquePath('selector-fencing');
    const target = await clients[0]!.create(uniquePath('target'), { data: Buffer.from('none') });
    const log = new TokenLog();
    const problems: string[] = [];
    const pathsMade: bigint[] = [];
    // Two rounds of 100 hand-overs; between them every participant leaves and the path goes.
    for (const round of [0, 1]) {
      let led = 0;
      const enough = deferred();
      let leading = 0;
      const selectors = clients.map(
        (client, index) =>
          new LeaderSelector(
            client,
            path,
            async (_signal, leadership) => {
              if (led >= 100) return;
              const who = `round ${round} client ${index}`;
              if (++leading > 1) problems.push(`${who} led alongside another`);
              log.add(who, leadership.fencingToken);
              const [first] = sortParticipants(await client.getChildren(path), ['lock-']);
              const { stat } = await client.getData(joinPath(path, first!));
              if (stat.czxid !== leadership.fencingToken) {
                problems.push(`${who}: token ${leadership.fencingToken} != czxid ${stat.czxid}`);
              }
              await leadership
                .transaction([op.setData(target, Buffer.from(leadership.fencingTokenString))])
                .catch((error: unknown) => problems.push(`${who}: ${String(error)}`));
              leading--;
              if (++led === 100) enough.resolve();
            },
            { id: `p${index}`, autoRequeue: true },
          ),
      );
      for (const selector of selectors) await selector.start();
      await enough.promise;
      await Promise.all(selectors.map((selector) => selector.close()));
      // A create that close() cut off is removed in the background (protected mode).
      await waitFor(async () => (await clients[0]!.getChildren(path)).length === 0, {
        message: 'every participant left',
      });
      pathsMade.push((await clients[0]!.exists(path))!.czxid);
      await clients[0]!.delete(path);
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(log.violations, []);
    assert.equal(log.tokens.length, 200);
    assert.ok(pathsMade[1]! > pathsMade[0]!, 'the path was made again');
    const { data, stat } = await clients[0]!.getData(target);
    assert.equal(data.toString(), log.tokens.at(-1)!.toString(), 'the last leader wrote last');
    assert.equal(stat.version, 200);
  });

  it("LeaderSelector: the leadership's transaction is refused, nothing sent, once takeLeadership returned or its signal aborted", async () => {
    const path = uniquePath('selector-refused');
    const target = await clients[0]!.create(uniquePath('target'), { data: Buffer.from('none') });
    const returned = deferred<Leadership>();
    const interrupted = deferred<unknown>();
    let calls = 0;
    const selector = new LeaderSelector(clients[0]!, path, async (signal, leadership) => {
      if (++calls === 1) {
        returned.resolve(leadership);
        return;
      }
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      interrupted.resolve(
        await leadership
          .transaction([op.setData(target, Buffer.from('x'))])
          .catch((error: unknown) => error),
      );
    });
    try {
      await selector.start();
      const ended = await returned.promise;
      await waitFor(() => !selector.isLeader, { message: 'takeLeadership returned' });
      assert.equal(ended.isValid(), false);
      await assert.rejects(ended.transaction([op.setData(target, Buffer.from('x'))]), (error) => {
        assert.ok(error instanceof HoldLostError);
        assert.equal(error.sent, false);
        assert.match(error.message, /leadership ended; nothing was written/);
        return true;
      });
      assert.equal(selector.requeue(), true);
      await waitFor(() => selector.isLeader, { message: 'leads again' });
      selector.interruptLeadership();
      const error = await interrupted.promise;
      assert.ok(isHoldLost(error) && !(error as HoldLostError).sent, String(error));
      assert.equal((await clients[0]!.getData(target)).stat.version, 0, 'nothing written');
    } finally {
      await selector.close();
    }
  });

  it("LeaderLatch: currentLeadership while leading (its token the node's czxid, its guarded write lands); closing ends it (signal aborted with ClosedError, writes refused); the next leader's token is larger", async () => {
    const path = uniquePath('latch-fencing');
    const target = await clients[0]!.create(uniquePath('target'), { data: Buffer.from('none') });
    const latches = clients
      .slice(0, 3)
      .map((client, i) => new LeaderLatch(client, path, { id: `l${i}` }));
    const log = new TokenLog();
    try {
      for (const latch of latches) {
        await latch.start();
        await waitFor(() => latch.ourPath !== undefined, { message: 'joined' });
      }
      for (const [index, latch] of latches.entries()) {
        await waitFor(() => latch.isLeader, { message: `latch ${index} leads` });
        for (const other of latches.slice(index + 1)) {
          assert.equal(other.currentLeadership, undefined, 'no leadership while not leading');
        }
        const leadership = latch.currentLeadership!;
        assert.equal(leadership.isValid(), true);
        const { stat } = await clients[0]!.getData(latch.ourPath!);
        assert.equal(leadership.fencingToken, stat.czxid);
        assert.equal(leadership.fencingTokenString, stat.czxid.toString());
        log.add(`latch ${index}`, leadership.fencingToken);
        const [result] = await leadership.transaction([
          op.setData(target, Buffer.from(leadership.fencingTokenString), { version: index }),
        ]);
        assert.equal(result?.type, 'setData');
        await latch.close();
        assert.equal(leadership.signal.aborted, true);
        assert.ok(isClosed(leadership.signal.reason), String(leadership.signal.reason));
        assert.equal(leadership.isValid(), false);
        assert.equal(latch.currentLeadership, undefined);
        await assert.rejects(
          leadership.transaction([op.setData(target, Buffer.from('late'))]),
          (e) => {
            assert.ok(e instanceof HoldLostError);
            assert.equal(e.sent, false);
            return true;
          },
        );
      }
      assert.deepEqual(log.violations, []);
      const { data, stat } = await clients[0]!.getData(target);
      assert.deepEqual([data.toString(), stat.version], [log.tokens.at(-1)!.toString(), 3]);
    } finally {
      await Promise.all(latches.map((latch) => latch.close()));
    }
  });

  it("LeaderSelector, leader's session killed ('session' policy), its write made once the server dropped the session and its client saw the connection go: refused (HoldLostError), nothing written; the successor's guarded write lands; 20 of 20", async (t) => {
    const trials = await Promise.all(Array.from({ length: 20 }, () => killedLeaderTrial(server)));
    for (const [index, { stale, target }] of trials.entries()) {
      assert.ok(stale instanceof HoldLostError, `trial ${index}: ${String(stale)}`);
      assert.deepEqual(target, ['successor', 1], `trial ${index}`);
    }
    const sent = trials.filter(({ stale }) => (stale as HoldLostError).sent).length;
    t.diagnostic(`${sent} refused by the server's check, ${trials.length - sent} before sending`);
  });
});
