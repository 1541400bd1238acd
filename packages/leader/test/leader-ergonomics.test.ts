import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import { LeaderLatch } from '../src/leader-latch.js';
import { LeaderSelector } from '../src/leader-selector.js';

describe('LeaderLatch and LeaderSelector: streams and Curator names', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    client = await connectedClient(server);
  });
  after(async () => {
    await closeAll([client]);
    await server.close();
  });

  it('LeaderLatch.leadershipStates with for await: false, then true; the loop ends on close()', async () => {
    const latch = new LeaderLatch(client, uniquePath('latch-iter'), { id: 'a' });
    const seen: boolean[] = [];
    const loop = (async () => {
      for await (const leads of latch.leadershipStates) seen.push(leads);
      return 'ended';
    })();
    await latch.start();
    assert.equal(await latch.await({ timeoutMs: 10_000 }), true);
    await waitFor(() => seen.length === 2, { message: 'the loop saw leadership' });
    await latch.close();
    assert.equal(await loop, 'ended');
    assert.deepEqual(seen, [false, true, false]);
  });

  it('LeaderSelector.leadershipStates with for await: true while takeLeadership runs; errors ends on close()', async () => {
    let finish!: () => void;
    const working = new Promise<void>((resolve) => (finish = resolve));
    const selector = new LeaderSelector(client, uniquePath('selector-iter'), () => working, {
      id: 's',
    });
    const seen: boolean[] = [];
    const loop = (async () => {
      for await (const leads of selector.leadershipStates) {
        seen.push(leads);
        if (leads) finish();
      }
      return 'ended';
    })();
    const errors = (async () => {
      for await (const failure of selector.errors) assert.fail(`unexpected ${failure.context}`);
      return 'ended';
    })();
    await selector.start();
    await waitFor(() => seen.length === 3, { message: 'led, then returned' });
    await selector.close();
    assert.equal(await loop, 'ended');
    assert.equal(await errors, 'ended');
    assert.deepEqual(seen, [false, true, false]);
  });

  it("Curator's method names work as methods: hasLeadership(), getOurPath(), getLastPathIsLeader(), getState(), getId()", async () => {
    const path = uniquePath('latch-names');
    const latch = new LeaderLatch(client, path, { id: 'a' });
    assert.equal(latch.hasLeadership(), false);
    assert.equal(latch.getState(), 'LATENT');
    assert.equal(latch.getOurPath(), undefined);
    await latch.start();
    assert.equal(await latch.await({ timeoutMs: 10_000 }), true);
    assert.equal(latch.hasLeadership(), true);
    assert.equal(latch.isLeader, true);
    assert.equal(latch.getState(), 'STARTED');
    assert.equal(latch.getId(), 'a');
    assert.equal(latch.getOurPath(), latch.ourPath);
    assert.match(latch.getOurPath()!, new RegExp(`^${path}/_c_[0-9a-f-]{36}-latch-\\d{10}$`));
    assert.equal(latch.getLastPathIsLeader(), latch.getOurPath());
    await latch.close();
    assert.equal(latch.hasLeadership(), false);
    assert.equal(latch.getState(), 'CLOSED');

    const inside: boolean[] = [];
    const selector = new LeaderSelector(
      client,
      uniquePath('selector-names'),
      () => {
        inside.push(selector.hasLeadership(), selector.isLeader);
      },
      { id: 's' },
    );
    assert.equal(selector.getId(), 's');
    assert.equal(selector.hasLeadership(), false);
    await selector.start();
    await waitFor(() => inside.length === 2, { message: 'takeLeadership ran' });
    assert.deepEqual(inside, [true, true]);
    await selector.close();
  });
});
