import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ClosedError, OperationTimeoutError, type FrameworkClient } from '@zkrecipes/framework';
import { TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { createServiceInstance, ServiceDiscovery } from '../src/index.js';
import { startClient } from './helpers.js';

/** How long `promise` takes to settle, and how (resolved value or rejection). */
async function settle<T>(promise: Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const start = performance.now();
  try {
    const value = await promise;
    return { ms: performance.now() - start, value };
  } catch (error) {
    return { ms: performance.now() - start, error };
  }
}

describe('discovery with the server stopped', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    client = await startClient(server.connectString, { sessionTimeoutMs: 10_000 });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('queries, registrations, updates and cache starts with a timeout or signal settle on time; close() is prompt', async () => {
    const base = uniquePath('outage');
    const discovery = new ServiceDiscovery(client, base);
    await discovery.start();
    const instance = createServiceInstance({ name: 'svc', id: 'a', port: 1 });
    await discovery.registerService(instance);
    await server.stop();

    const timeoutMs = 500;
    const bound = timing.ms(timeoutMs + 1500);
    const timed: Promise<unknown>[] = [
      discovery.queryForNames({ timeoutMs }),
      discovery.queryForInstances('svc', { timeoutMs }),
      discovery.queryForInstance('svc', 'a', { timeoutMs }),
      discovery.updateService(createServiceInstance({ ...instance, port: 2 }), { timeoutMs }),
      discovery.registerService(createServiceInstance({ name: 'svc', id: 'b' }), { timeoutMs }),
      discovery.serviceCache('svc').start({ timeoutMs }),
    ];
    for (const outcome of await Promise.all(timed.map((p) => settle(p)))) {
      assert.ok(outcome.error instanceof OperationTimeoutError, String(outcome.error));
      assert.ok(outcome.ms >= timeoutMs - 50, `settled after ${outcome.ms} ms`);
      assert.ok(outcome.ms < bound, `settled after ${outcome.ms} ms`);
    }

    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const aborted = settle(discovery.queryForInstances('svc', { signal: controller.signal }));
    controller.abort(reason);
    const abortOutcome = await aborted;
    assert.equal(abortOutcome.error, reason);
    assert.ok(abortOutcome.ms < timing.ms(500), `aborted after ${abortOutcome.ms} ms`);

    // A query without limits is ended by close(), and close() itself does not wait for the server.
    const pending = settle(discovery.queryForInstances('svc'));
    const provider = discovery.serviceProvider('svc');
    const providerStart = settle(provider.start());
    const closing = await settle(discovery.close());
    assert.ok(closing.ms < timing.ms(1000), `close() took ${closing.ms} ms`);
    assert.ok((await pending).error instanceof ClosedError, String((await pending).error));
    assert.ok((await providerStart).error instanceof ClosedError);

    // The registrations' deletes were left to the client's guaranteed deletes: done on restart.
    await server.restart();
    await client.blockUntilConnected({ timeoutMs: timing.ms(15_000) });
    await waitFor(async () => (await client.getChildren(`${base}/svc`)).length === 0, {
      timeoutMs: 15_000,
      message: 'the registrations deleted once the server is back',
    });
  });
});
