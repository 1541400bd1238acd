// LeaderSelector's time without a leader on a real server, read with the OpenTelemetry SDK's
// in-memory reader: each client has its own SDK, so each figure is one participant's view.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { closeAll, connectedClient, OtelCapture } from '@zkrecipes/test-support';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { contender, LeaderWitness, startInLine } from './helpers.js';

const SELECTOR = { 'zkrecipes.recipe': 'LeaderSelector' };
const LEADERLESS = 'zkrecipes.leader.leaderless.duration';

describe('LeaderSelector telemetry', () => {
  let server: TestingServer;
  const otel = [new OtelCapture(), new OtelCapture(), new OtelCapture()];
  const clients: FrameworkClient[] = [];
  before(async () => {
    server = await TestingServer.start();
    for (const capture of otel) {
      clients.push(
        await connectedClient(server, {
          meterProvider: capture.meterProvider,
          tracerProvider: capture.tracerProvider,
        }),
      );
    }
  });
  after(async () => {
    await closeAll(clients);
    for (const capture of otel) await capture.shutdown();
    await server.close();
  });

  /** How many data reads (a watch on the node ahead) this client has had answered. */
  const dataReads = (capture: OtelCapture): Promise<number> =>
    capture.total('db.client.operation.duration', { 'db.operation.name': 'getData' });

  it('failover: the survivor records one leaderless duration, from the leader going to taking over', async () => {
    const path = uniquePath('selector');
    const witness = new LeaderWitness();
    const a = contender(clients[0]!, path, 'a', witness);
    const b = contender(clients[1]!, path, 'b', witness);
    try {
      await startInLine(a, b);
      const failoverStart = performance.now();
      await a.selector.close();
      await waitFor(() => b.selector.isLeader, { message: 'b took over' });
      const failoverMs = performance.now() - failoverStart;

      const [leaderless] = await otel[1]!.points(LEADERLESS, SELECTOR);
      assert.equal(leaderless?.count, 1);
      assert.ok(
        leaderless.value > 0 && leaderless.value <= failoverMs / 1000,
        `leaderless ${leaderless.value} s, failover ${failoverMs} ms`,
      );
      // The leader that stepped down saw no wait of its own: it watches nobody.
      assert.equal(await otel[0]!.total(LEADERLESS, SELECTOR), 0);
      assert.deepEqual(witness.violations, []);
    } finally {
      await a.selector.close();
      await b.selector.close();
    }
  });

  it('a waiter ahead that leaves is not a leaderless time; the leader going after it is', async () => {
    const path = uniquePath('selector');
    const witness = new LeaderWitness();
    const [a, b, c] = ['a', 'b', 'c'].map((id, i) => contender(clients[i]!, path, id, witness));
    try {
      // Read on a's client: c's data reads are then only its watches.
      await startInLine(a!, b!, c!);
      await waitFor(async () => (await dataReads(otel[2]!)) === 1, { message: 'c watching b' });
      const earlier = await otel[2]!.total(LEADERLESS, SELECTOR);
      // c watches b. b leaves: c's watch fires, its next look still finds a at the head, and
      // c watches a (that watch set before a leaves: else c would find a gone by reading).
      await b!.selector.close();
      await waitFor(async () => (await dataReads(otel[2]!)) === 2, {
        message: 'c watching a after b left',
      });
      assert.equal(await otel[2]!.total(LEADERLESS, SELECTOR), earlier);
      // Now c watches a, the leader: its going is one leaderless time, ended by c's takeover.
      await a!.selector.close();
      await waitFor(() => c!.selector.isLeader, { message: 'c took over' });
      assert.equal(await otel[2]!.total(LEADERLESS, SELECTOR), earlier + 1);
      assert.deepEqual(witness.violations, []);
    } finally {
      for (const { selector } of [a!, b!, c!]) await selector.close();
    }
  });
});
