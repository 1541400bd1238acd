import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import {
  createServiceInstance,
  JsonInstanceSerializer,
  RandomStrategy,
  RoundRobinStrategy,
  ServiceDiscovery,
  StickyStrategy,
  type ServiceInstance,
} from '../src/index.js';
import { DownInstances } from '../src/down-instance-policy.js';

const instances: ServiceInstance[] = ['a', 'b', 'c'].map((id) =>
  createServiceInstance({ name: 'svc', id, address: 'h' }),
);
const ids = (list: readonly (ServiceInstance | undefined)[]): string[] =>
  list.map((i) => i?.id ?? '-');

describe('provider strategies', () => {
  it('RoundRobinStrategy hands out each instance once per cycle, in order', () => {
    const strategy = new RoundRobinStrategy();
    assert.equal(strategy.getInstance([]), undefined);
    const picked = Array.from({ length: 7 }, () => strategy.getInstance(instances));
    assert.deepEqual(ids(picked), ['a', 'b', 'c', 'a', 'b', 'c', 'a']);
  });

  it('RandomStrategy picks only given instances and, over many picks, every one', () => {
    const strategy = new RandomStrategy();
    assert.equal(strategy.getInstance([]), undefined);
    const seen = new Set(ids(Array.from({ length: 300 }, () => strategy.getInstance(instances))));
    assert.deepEqual([...seen].sort(), ['a', 'b', 'c']);
  });

  it('StickyStrategy keeps its instance until it is gone, then asks the wrapped strategy', () => {
    const strategy = new StickyStrategy(new RoundRobinStrategy());
    assert.equal(strategy.getInstance(instances)?.id, 'a');
    assert.equal(strategy.getInstance(instances)?.id, 'a');
    assert.equal(strategy.instanceNumber, 0);
    assert.equal(strategy.getInstance(instances.slice(1))?.id, 'c');
    assert.equal(strategy.getInstance(instances)?.id, 'c');
    assert.equal(strategy.instanceNumber, 1);
  });

  it('DownInstances: down after errorThreshold errors, up again timeoutMs after the first', () => {
    let nowMs = 0;
    const down = new DownInstances({ errorThreshold: 2, timeoutMs: 1000 }, () => nowMs);
    const [a] = instances as [ServiceInstance];
    down.add(a);
    assert.equal(down.isUp(a), true);
    nowMs = 400;
    down.add(a);
    assert.equal(down.isUp(a), false);
    nowMs = 999;
    assert.equal(down.isUp(a), false);
    nowMs = 1000;
    assert.equal(down.isUp(a), true);
  });
});

describe('ServiceProvider', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    client = await startClient(server.connectString);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('leaves out disabled instances, those noted down and those the filters reject', async () => {
    const base = uniquePath('provider');
    await using discovery = new ServiceDiscovery(client, base, {
      serializer: new JsonInstanceSerializer({ compatibleMode: false }),
    });
    await discovery.start();
    for (const [id, enabled, zone] of [
      ['a', true, 'eu'],
      ['b', true, 'eu'],
      ['c', false, 'eu'],
      ['d', true, 'us'],
    ] as const) {
      await discovery.registerService(
        createServiceInstance({ name: 'svc', id, enabled, payload: { zone } }),
      );
    }
    await using provider = discovery.serviceProvider('svc', {
      filters: [(i) => i.payload?.zone === 'eu'],
      downInstancePolicy: { errorThreshold: 1, timeoutMs: 60_000 },
    });
    await provider.start({ timeoutMs: 5000 });
    assert.deepEqual(ids(provider.getAllInstances()), ['a', 'b']);
    const a = provider.getInstance();
    assert.equal(a?.id, 'a');
    provider.noteError(a);
    assert.deepEqual(ids(provider.getAllInstances()), ['b']);
    assert.equal(provider.getInstance()?.id, 'b');
    await discovery.unregisterService(createServiceInstance({ name: 'svc', id: 'b' }));
    await waitFor(() => provider.getInstance() === undefined, { message: 'no usable instance' });
  });
});
