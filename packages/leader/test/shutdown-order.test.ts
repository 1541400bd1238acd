// The documented shutdown order, during an outage: a service holding a lock, leading through a
// latch and a member of a group, all on one client, shuts down while ZooKeeper is unreachable.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { GroupMember } from '@zkrecipes/group';
import { InterProcessMutex } from '@zkrecipes/locks';
import { TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import { LeaderLatch } from '../src/leader-latch.js';

const SESSION_MS = 4000;

describe('shutdown order during an outage', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(() => server.close());

  it('server stopped: mutex.release(), latch.close(), member.close(), client.close() in that order finish in under 1 s together; after the restart the lock, latch and member nodes are gone within the session timeout', async (t) => {
    const client = await connectedClient(server, { sessionTimeoutMs: SESSION_MS });
    const mutex = new InterProcessMutex(client, uniquePath('shutdown-lock'));
    const latch = new LeaderLatch(client, uniquePath('shutdown-latch'), { id: 'service-1' });
    const member = new GroupMember(client, uniquePath('shutdown-group'), 'service-1');
    let observer: FrameworkClient | undefined;
    try {
      await mutex.acquire();
      await latch.start();
      await member.start();
      assert.equal(await latch.await({ timeoutMs: 10_000 }), true);
      assert.equal(await member.waitForInitialCreate({ timeoutMs: 10_000 }), true);
      const nodes = [mutex.hold!.lockPath, latch.ourPath!, `${member.groupPath}/${member.id}`];
      await server.stop();
      await waitFor(() => !client.isConnected, { message: 'the client sees the outage' });
      const steps: string[] = [];
      const startedAt = performance.now();
      for (const [name, step] of [
        ['mutex.release', () => mutex.release()],
        ['latch.close', () => latch.close()],
        ['member.close', () => member.close()],
        ['client.close', () => client.close()],
      ] as const) {
        const stepAt = performance.now();
        await step();
        steps.push(`${name} ${Math.round(performance.now() - stepAt)} ms`);
      }
      const tookMs = performance.now() - startedAt;
      t.diagnostic(`with the server stopped: ${steps.join(', ')}`);
      assert.ok(tookMs < timing.ms(1000), `the shutdown took ${tookMs} ms: ${steps.join(', ')}`);
      await server.restart();
      const restartedAt = performance.now();
      observer = await connectedClient(server);
      const checker = observer;
      await waitFor(
        async () => {
          const left = await Promise.all(nodes.map((node) => checker.exists(node)));
          return left.every((stat) => stat === null);
        },
        { timeoutMs: SESSION_MS + 1000, message: 'the lock, latch and member nodes are gone' },
      );
      const goneMs = performance.now() - restartedAt;
      t.diagnostic(`nodes gone ${Math.round(goneMs)} ms after the restart`);
      assert.ok(goneMs < timing.ms(SESSION_MS + 1000), `gone ${goneMs} ms after the restart`);
    } finally {
      await closeAll([latch, member, client, ...(observer ? [observer] : [])]);
    }
  });
});
