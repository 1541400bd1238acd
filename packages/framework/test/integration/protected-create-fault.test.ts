import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FaultProxy, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { ExponentialBackoffRetry } from '../../src/retry/exponential-backoff-retry.js';

describe('protected create under a dropped connection', () => {
  let server: TestingServer;
  let proxy: FaultProxy;
  let observer: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    proxy = await FaultProxy.start({ targetPort: server.port });
    observer = createFramework({ connectString: server.connectString, logger: silentLogger });
    await observer.start();
  });
  after(async () => {
    await observer.close();
    await proxy.close();
    await server.close();
  });

  it('the server applied the create but the reply was lost: exactly one node exists and its path is returned', async () => {
    const client = createFramework({
      connectString: proxy.connectString,
      sessionTimeoutMs: 10_000,
      retryPolicy: new ExponentialBackoffRetry({ baseSleepMs: 50, maxRetries: 10 }),
      logger: silentLogger,
    });
    await client.start();
    try {
      const parent = uniquePath('protected');
      await client.create(parent);
      // Delay both directions so the reply is still inside the proxy when the node exists.
      proxy.delay(400);
      const created = client.create(`${parent}/lock-`, {
        mode: 'EPHEMERAL_SEQUENTIAL',
        protection: true,
      });
      let settled = false;
      void created.finally(() => {
        settled = true;
      });
      await waitFor(async () => (await observer.getChildren(parent)).length === 1, {
        timeoutMs: 5000,
        message: 'the create reached the server',
      });
      // The reply is still on its way: the connection drops with the create's outcome unknown.
      assert.equal(settled, false, 'the create had already answered; the fault came too late');
      proxy.drop();
      proxy.heal();
      const path = await created;
      const children = await observer.getChildren(parent);
      assert.equal(children.length, 1, `children: ${children.join(', ')}`);
      assert.equal(path, `${parent}/${children[0]}`);
      assert.match(children[0] ?? '', /^_c_[0-9a-f-]{36}-lock-\d{10}$/);
      // The node belongs to the client's (surviving) session.
      const stat = await observer.exists(path);
      assert.equal(stat?.ephemeralOwner, client.sessionId);
    } finally {
      proxy.heal();
      await client.close();
    }
  });
});
