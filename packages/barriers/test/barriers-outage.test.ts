import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isClosed, type FrameworkClient } from '@zkrecipes/framework';
import { LOOK_ONCE_ANSWER_WAIT_MS } from '@zkrecipes/framework/recipe-support';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { assertBetween, connect, isTimeoutError, timed, type Timed } from '@zkrecipes/test-support';
import { DistributedBarrier, DistributedDoubleBarrier } from '../src/index.js';

function assertSettled(
  label: string,
  result: Timed,
  expected: { value?: unknown; timeoutError?: true },
  [minMs, maxMs]: readonly [number, number],
): void {
  if (expected.timeoutError === true) {
    assert.ok(isTimeoutError(result.error), `${label}: ${String(result.error)}`);
  } else {
    assert.equal(result.error, undefined, `${label}: ${String(result.error)}`);
    assert.equal(result.value, expected.value, label);
  }
  assertBetween(label, result, minMs, maxMs);
}

describe('barriers with the server stopped', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    // A session that outlives the outage: the calls below end on their own limits, not on LOST.
    client = await connect(server.connectString, { sessionTimeoutMs: 30_000 });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('timed waits answer in time, signals reject in time, waits end when the client closes, and nothing given up is sent later', async () => {
    const path = uniquePath('outage');
    const gate = new DistributedBarrier(client, `${path}/gate`);
    await gate.setBarrier();
    // Two members of a barrier for two, entered: leave() waits for the other one.
    const [left, other] = [1, 2].map(() => new DistributedDoubleBarrier(client, `${path}/done`, 2));
    assert.deepEqual(await Promise.all([left!.enter(), other!.enter()]), [true, true]);
    const closing = await connect(server.connectString, { sessionTimeoutMs: 30_000 });
    await closing.exists(path);

    await server.stop();
    await waitFor(() => !client.isConnected && !closing.isConnected, { message: 'SUSPENDED' });
    // Waits without a timeout or signal wait for the connection, until the client closes.
    const untilClose = [
      new DistributedBarrier(closing, `${path}/gate`).waitOnBarrier(),
      new DistributedDoubleBarrier(closing, `${path}/closing`, 2).enter(),
    ].map((call) => timed(() => call));
    const fourMembers = () => new DistributedDoubleBarrier(client, `${path}/four`, 4);
    const [wait, waitSignal, waitNow, enter, enterSignal, leave, set, remove] = await Promise.all([
      timed(() => gate.waitOnBarrier({ timeoutMs: 2000 })),
      timed(() => gate.waitOnBarrier({ signal: AbortSignal.timeout(1000) })),
      timed(() => gate.waitOnBarrier({ timeoutMs: 0 })),
      timed(() => fourMembers().enter({ timeoutMs: 2000 })),
      timed(() => fourMembers().enter({ signal: AbortSignal.timeout(1000) })),
      timed(() => left!.leave({ timeoutMs: 2000 })),
      timed(() =>
        new DistributedBarrier(client, `${path}/never`).setBarrier({
          signal: AbortSignal.timeout(1000),
        }),
      ),
      timed(() => gate.removeBarrier({ signal: AbortSignal.timeout(1000) })),
    ]);
    assertSettled('waitOnBarrier({ timeoutMs: 2000 })', wait, { value: false }, [2000, 3000]);
    assertSettled('waitOnBarrier({ signal })', waitSignal, { timeoutError: true }, [1000, 2000]);
    assertSettled('waitOnBarrier({ timeoutMs: 0 })', waitNow, { value: false }, [0, 100]);
    assertSettled('enter({ timeoutMs: 2000 })', enter, { value: false }, [2000, 3000]);
    assertSettled('enter({ signal })', enterSignal, { timeoutError: true }, [1000, 2000]);
    assertSettled('leave({ timeoutMs: 2000 })', leave, { value: false }, [2000, 3000]);
    assertSettled('setBarrier({ signal })', set, { timeoutError: true }, [1000, 2000]);
    assertSettled('removeBarrier({ signal })', remove, { timeoutError: true }, [1000, 2000]);
    assert.equal(left!.phase, 'ENTERED');

    await closing.close();
    for (const result of await Promise.all(untilClose)) {
      assert.ok(isClosed(result.error), String(result.error));
    }

    await server.restart();
    // A connection made while the server restarts may wait out the handshake watchdog (a third of
    // the 30 s session) before the next attempt.
    await waitFor(() => client.isConnected, { message: 'the reconnect', timeoutMs: 30_000 });
    // What was given up while waiting for the connection was never sent.
    assert.equal(await client.exists(`${path}/never`), null);
    assert.notEqual(await client.exists(`${path}/gate`), null);
    assert.equal(await client.exists(`${path}/four`), null);
    // The barrier still works: the other member leaves, then this one finishes leaving.
    assert.deepEqual(await Promise.all([left!.leave(), other!.leave()]), [true, true]);
    assert.deepEqual(await client.getChildren(`${path}/done`), []);
  });
});

describe('barriers with the server paused', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(() => server.close());

  it('the link still reads as connected: a look once ({ timeoutMs: 0 }) answers within the look-once answer wait, long before the connection is declared dead', async () => {
    // A 30 s session: the liveness check would declare the connection dead only after 20 s.
    const client = await connect(server.connectString, { sessionTimeoutMs: 30_000 });
    const path = uniquePath('paused');
    try {
      const gate = new DistributedBarrier(client, `${path}/gate`);
      await gate.setBarrier();
      await server.pause();
      const [wait, enter] = await Promise.all([
        timed(() => gate.waitOnBarrier({ timeoutMs: 0 })),
        timed(() => new DistributedDoubleBarrier(client, `${path}/two`, 2).enter({ timeoutMs: 0 })),
      ]);
      assert.equal(client.isConnected, true, 'still reads as connected');
      const limits = [0, LOOK_ONCE_ANSWER_WAIT_MS + 500] as const;
      assertSettled('waitOnBarrier({ timeoutMs: 0 })', wait, { value: false }, limits);
      assertSettled('enter({ timeoutMs: 0 })', enter, { value: false }, limits);
      server.resume();
      // The member node enter() may have made is removed once the server answers.
      await waitFor(
        async () => (await client.getChildren(`${path}/two`).catch(() => [])).length === 0,
        { message: 'no member node left' },
      );
    } finally {
      if (server.paused) server.resume();
      await client.close();
    }
  });
});
