// Starts and first-connection waits that used to take no signal: with the server stopped (the
// client connected once, now SUSPENDED) and with a client that never reached a server, each
// ends when its signal aborts, with the signal's reason, on time.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createFramework, type FrameworkClient } from '@zkrecipes/framework';
import { NodeCache, PathChildrenCache, StartMode } from '@zkrecipes/caches';
import { DistributedQueue } from '@zkrecipes/queues';
import { freePort, TestingServer, timing, uniquePath } from '@zkrecipes/testing';
import { assertBetween, isTimeoutError, startClient, timed } from '@zkrecipes/test-support';

const LIMIT_MS = 500;

describe('starts and waits bounded by a signal while no server answers', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    client = await startClient(server.connectString, { connectionTimeoutMs: 15_000 });
    await server.stop();
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const starts: [string, () => Promise<unknown>][] = [
    [
      'PathChildrenCache.start(BUILD_INITIAL_CACHE, { signal })',
      () =>
        new PathChildrenCache(client, uniquePath('pcc')).start(StartMode.BUILD_INITIAL_CACHE, {
          signal: AbortSignal.timeout(LIMIT_MS),
        }),
    ],
    [
      'NodeCache.start({ buildInitial: true, signal })',
      () =>
        new NodeCache(client, uniquePath('nc')).start({
          buildInitial: true,
          signal: AbortSignal.timeout(LIMIT_MS),
        }),
    ],
    [
      'DistributedQueue.start({ signal })',
      () =>
        new DistributedQueue(client, uniquePath('queue')).start({
          signal: AbortSignal.timeout(LIMIT_MS),
        }),
    ],
  ];
  for (const [name, call] of starts) {
    it(`server stopped: ${name} rejects with the signal's reason on time`, async () => {
      const result = await timed(call);
      assert.ok(isTimeoutError(result.error), String(result.error));
      assertBetween(name, result, LIMIT_MS, LIMIT_MS + timing.ms(500));
    });
  }

  it('a client that never connected: blockUntilConnected({ signal }) rejects with its reason on time', async () => {
    const never = createFramework({ connectString: `127.0.0.1:${await freePort()}` });
    await never.start();
    try {
      const result = await timed(() =>
        never.blockUntilConnected({ signal: AbortSignal.timeout(LIMIT_MS) }),
      );
      assert.ok(isTimeoutError(result.error), String(result.error));
      assertBetween('blockUntilConnected({ signal })', result, LIMIT_MS, LIMIT_MS + timing.ms(500));
      // With a timeout instead, it still answers false.
      assert.equal(await never.blockUntilConnected({ timeoutMs: 50 }), false);
    } finally {
      await never.close();
    }
  });
});
