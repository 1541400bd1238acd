import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ClosedError, OperationTimeoutError, type FrameworkClient } from '@zkrecipes/framework';
import { OWN_NODE_ANSWER_WAIT_MS } from '@zkrecipes/framework/recipe-support';
import { TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import { createServiceInstance, ServiceDiscovery, type ServiceInstance } from '../src/index.js';

/**
 * How long `promise` takes to settle from `start` (default: now), and how (resolved value or
 * rejection).
 */
async function settle<T>(
  promise: Promise<T>,
  start = performance.now(),
): Promise<{ ms: number; value?: T; error?: unknown }> {
  try {
    const value = await promise;
    return { ms: performance.now() - start, value };
  } catch (error) {
    return { ms: performance.now() - start, error };
  }
}

/**
 * Every waiting call with a timeout or signal settles on time; close() ends the rest and
 * resolves within `closeBoundMs`; returns how long close() took.
 */
async function checkBounded(
  discovery: ServiceDiscovery,
  instance: ServiceInstance,
  closeBoundMs: number,
): Promise<number> {
  const timeoutMs = 500;
  const bound = timing.ms(timeoutMs + 1500);
  // Timed from before the first call: making six calls takes a while on a loaded machine.
  const calledAtMs = performance.now();
  const timed: Promise<unknown>[] = [
    discovery.queryForNames({ timeoutMs }),
    discovery.queryForInstances('svc', { timeoutMs }),
    discovery.queryForInstance('svc', 'a', { timeoutMs }),
    discovery.updateService(createServiceInstance({ ...instance, port: 2 }), { timeoutMs }),
    discovery.registerService(createServiceInstance({ name: 'svc', id: 'b' }), { timeoutMs }),
    discovery.serviceCache('svc').start({ timeoutMs }),
  ];
  for (const outcome of await Promise.all(timed.map((p) => settle(p, calledAtMs)))) {
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
  assert.ok(closing.ms < timing.ms(closeBoundMs), `close() took ${closing.ms} ms`);
  assert.ok((await pending).error instanceof ClosedError, String((await pending).error));
  assert.ok((await providerStart).error instanceof ClosedError);
  return closing.ms;
}

const SESSION_TIMEOUT_MS = 10_000;

describe('discovery during an outage', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    client = await startClient(server.connectString, { sessionTimeoutMs: SESSION_TIMEOUT_MS });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('server stopped: queries, registrations, updates and cache starts with a timeout or signal settle on time; close() is prompt', async (t) => {
    const base = uniquePath('outage');
    const discovery = new ServiceDiscovery(client, base);
    await discovery.start();
    const instance = createServiceInstance({ name: 'svc', id: 'a', port: 1 });
    await discovery.registerService(instance);
    await server.stop();
    try {
      const closeMs = await checkBounded(discovery, instance, 1000);
      t.diagnostic(`close() took ${closeMs.toFixed(1)} ms with the server stopped`);
    } finally {
      // The registrations' deletes were left to the client's guaranteed deletes: done on restart.
      await server.restart();
    }
    await client.blockUntilConnected({ timeoutMs: timing.ms(15_000) });
    await waitFor(async () => (await client.getChildren(`${base}/svc`)).length === 0, {
      timeoutMs: 15_000,
      message: 'the registrations deleted once the server is back',
    });
  });

  it('server paused (hung): calls settle on time; close() waits for its deletes at most the own-node answer wait, and they are done once the server answers', async (t) => {
    const base = uniquePath('paused');
    const discovery = new ServiceDiscovery(client, base);
    await discovery.start();
    const instance = createServiceInstance({ name: 'svc', id: 'a', port: 1 });
    await discovery.registerService(instance);
    await server.pause();
    try {
      // The link still reads as connected (the liveness check needs 2/3 of the session to
      // declare it dead): a registration's delete is awaited OWN_NODE_ANSWER_WAIT_MS at most.
      const closeMs = await checkBounded(discovery, instance, OWN_NODE_ANSWER_WAIT_MS + 500);
      t.diagnostic(`close() took ${closeMs.toFixed(1)} ms with the server paused`);
    } finally {
      server.resume();
    }
    await client.blockUntilConnected({ timeoutMs: timing.ms(15_000) });
    await waitFor(async () => (await client.getChildren(`${base}/svc`)).length === 0, {
      timeoutMs: 15_000,
      message: 'the registrations deleted once the server answers again',
    });
  });
});
