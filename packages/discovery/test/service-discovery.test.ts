import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { firstValueFrom } from 'rxjs';
import { filter } from 'rxjs/operators';
import { IllegalStateError, ClosedError, type FrameworkClient } from '@zkrecipes/framework';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import { createServiceInstance, JsonInstanceSerializer, ServiceDiscovery } from '../src/index.js';

describe('ServiceDiscovery', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  let other: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    client = await startClient(server.connectString);
    other = await startClient(server.connectString);
  });
  after(async () => {
    await other.close();
    await client.close();
    await server.close();
  });

  it("registers each service type with Curator's node mode and removes all of them on close()", async () => {
    const base = uniquePath('modes');
    const discovery = new ServiceDiscovery(client, base);
    await discovery.start();
    const session = client.sessionCredentials()?.sessionId;
    await discovery.registerService(createServiceInstance({ name: 'svc', id: 'dyn' }));
    await discovery.registerService(
      createServiceInstance({ name: 'svc', id: 'stat', serviceType: 'STATIC' }),
    );
    await discovery.registerService(
      createServiceInstance({ name: 'svc', id: 'perm', serviceType: 'PERMANENT' }),
    );
    await discovery.registerService(
      createServiceInstance({ name: 'svc', id: 's', serviceType: 'DYNAMIC_SEQUENTIAL' }),
    );
    const names = (await client.getChildren(`${base}/svc`)).sort();
    assert.equal(names.length, 4);
    assert.deepEqual(names.slice(0, 2), ['dyn', 'perm']);
    assert.match(names[2] ?? '', /^s\d{10}$/);
    assert.equal(names[3], 'stat');
    assert.equal((await client.exists(`${base}/svc/dyn`))?.ephemeralOwner, session);
    assert.equal((await client.exists(`${base}/svc/${names[2]}`))?.ephemeralOwner, session);
    assert.equal((await client.exists(`${base}/svc/stat`))?.ephemeralOwner, 0n);
    assert.equal((await client.exists(`${base}/svc/perm`))?.ephemeralOwner, 0n);
    // The sequential node's JSON keeps the id as given, as Curator writes it.
    const sequential = await discovery.queryForInstances('svc');
    assert.deepEqual(sequential.map((i) => i.id).sort(), ['dyn', 'perm', 's', 'stat']);

    await discovery.close();
    await discovery.close(); // twice: a no-op
    assert.deepEqual(await client.getChildren(`${base}/svc`), []);
  });

  it('a service cache read with for await: the current list first, a registration, the end on close()', async () => {
    const discovery = new ServiceDiscovery(client, uniquePath('iterate'));
    await discovery.start();
    await discovery.registerService(createServiceInstance({ name: 'svc', id: 'a' }));
    const cache = discovery.serviceCache('svc');
    const seen: string[] = [];
    const loop = (async () => {
      for await (const list of cache.instances) seen.push(list.map((i) => i.id).join(','));
      return 'ended';
    })();
    await cache.start();
    await waitFor(() => seen.includes('a'), { message: 'the first list' });
    await discovery.registerService(createServiceInstance({ name: 'svc', id: 'b' }));
    await waitFor(() => seen.includes('a,b'), { message: 'the registration' });
    await discovery.close(); // closes the cache too
    assert.equal(await loop, 'ended');
  });

  it('queryForNames, queryForInstances and queryForInstance: sorted answers, none for what does not exist', async () => {
    const base = uniquePath('queries');
    await using discovery = new ServiceDiscovery(client, base);
    await discovery.start();
    assert.deepEqual(await discovery.queryForNames(), []);
    assert.deepEqual(await discovery.queryForInstances('nothing'), []);
    assert.equal(await discovery.queryForInstance('nothing', 'x'), undefined);
    for (const [name, id] of [
      ['b', '2'],
      ['a', '1'],
      ['b', '1'],
    ] as const) {
      await discovery.registerService(createServiceInstance({ name, id, port: 80 }));
    }
    assert.deepEqual(await discovery.queryForNames(), ['a', 'b']);
    assert.deepEqual(
      (await discovery.queryForInstances('b')).map((i) => i.id),
      ['1', '2'],
    );
    assert.equal((await discovery.queryForInstance('a', '1'))?.port, 80);
    assert.deepEqual(
      discovery.getRegisteredInstances().map((i) => `${i.name}/${i.id}`),
      ['b/2', 'a/1', 'b/1'],
    );
  });

  it('a node that does not hold an instance is left out and reported on errors and client.unhandledErrors', async () => {
    const base = uniquePath('foreign');
    await using discovery = new ServiceDiscovery(client, base);
    await discovery.start();
    await discovery.registerService(createServiceInstance({ name: 'svc', id: 'good' }));
    await client.create(`${base}/svc/junk`, { data: Buffer.from('not json') });
    const reported = firstValueFrom(discovery.errors);
    const unhandled = firstValueFrom(
      client.unhandledErrors.pipe(filter(({ context }) => context.includes(`${base}/svc/junk`))),
    );
    assert.deepEqual(
      (await discovery.queryForInstances('svc')).map((i) => i.id),
      ['good'],
    );
    assert.match((await reported).context, /junk/);
    assert.deepEqual(await unhandled, await reported);
  });

  it('a registration deleted underneath comes back with its latest data', async () => {
    const base = uniquePath('deleted');
    await using discovery = new ServiceDiscovery(client, base);
    await discovery.start();
    const instance = createServiceInstance({ name: 'svc', id: 'x', port: 1 });
    await discovery.registerService(instance);
    await discovery.updateService(createServiceInstance({ ...instance, port: 2 }));
    const first = await client.exists(`${base}/svc/x`);
    await other.delete(`${base}/svc/x`);
    const back = await waitFor(
      async () => {
        const stat = await client.exists(`${base}/svc/x`);
        return stat !== null && stat.czxid !== first?.czxid && stat;
      },
      { message: 'the registration re-created' },
    );
    assert.equal(back.ephemeralOwner, client.sessionCredentials()?.sessionId);
    assert.equal((await discovery.queryForInstance('svc', 'x'))?.port, 2);
  });

  it('registering an id again replaces its data in place; updateService of an unknown id is an IllegalStateError', async () => {
    const base = uniquePath('again');
    await using discovery = new ServiceDiscovery(client, base);
    await discovery.start();
    const instance = createServiceInstance({ name: 'svc', id: 'x', port: 1 });
    await discovery.registerService(instance);
    const before = await client.exists(`${base}/svc/x`);
    await discovery.registerService(createServiceInstance({ ...instance, port: 5 }));
    const afterStat = await client.exists(`${base}/svc/x`);
    assert.equal(afterStat?.czxid, before?.czxid);
    assert.equal((await discovery.queryForInstance('svc', 'x'))?.port, 5);
    await assert.rejects(
      discovery.updateService(createServiceInstance({ name: 'svc', id: 'y' })),
      IllegalStateError,
    );
    await discovery.unregisterService(instance);
    assert.equal(await client.exists(`${base}/svc/x`), null);
    await discovery.unregisterService(instance); // unknown now: ignored, as in Curator
  });

  it('thisInstance is registered by start(); the lifecycle is checked', async () => {
    const base = uniquePath('lifecycle');
    const thisInstance = createServiceInstance({ name: 'me', id: 'me-1' });
    const discovery = new ServiceDiscovery(client, base, { thisInstance });
    await assert.rejects(discovery.queryForNames(), IllegalStateError);
    await assert.rejects(discovery.registerService(thisInstance), IllegalStateError);
    await discovery.start({ timeoutMs: 5000 });
    assert.notEqual(await client.exists(`${base}/me/me-1`), null);
    await assert.rejects(discovery.start(), IllegalStateError);
    await discovery.close();
    assert.equal(await client.exists(`${base}/me/me-1`), null);
    await assert.rejects(discovery.queryForNames(), ClosedError);
    assert.throws(() => discovery.serviceCache('me'), ClosedError);
  });

  it('ServiceCache: a stream, a synchronous getter and cacheChanged listeners follow the instances', async () => {
    const base = uniquePath('cache');
    await using discovery = new ServiceDiscovery(client, base, {
      serializer: new JsonInstanceSerializer({ compatibleMode: false }),
    });
    await discovery.start();
    await discovery.registerService(createServiceInstance({ name: 'svc', id: 'a' }));
    const cache = discovery.serviceCache('svc');
    const changes: string[][] = [];
    cache.on('cacheChanged', (list) => changes.push(list.map((i) => i.id)));
    await cache.start({ timeoutMs: 5000 });
    assert.deepEqual(
      cache.getInstances().map((i) => i.id),
      ['a'],
    );
    await discovery.registerService(
      createServiceInstance({ name: 'svc', id: 'b', enabled: false }),
    );
    const two = await firstValueFrom(cache.instances.pipe(filter((l) => l.length === 2)));
    assert.deepEqual(
      two.map((i) => [i.id, i.enabled]),
      [
        ['a', true],
        ['b', false],
      ],
    );
    await discovery.unregisterService(createServiceInstance({ name: 'svc', id: 'a' }));
    await firstValueFrom(cache.instances.pipe(filter((l) => l.length === 1)));
    await waitFor(() => changes.length >= 2, { message: 'two cacheChanged calls' });
    assert.deepEqual(changes.slice(-2), [['a', 'b'], ['b']]);
    assert.deepEqual(
      cache.getInstances().map((i) => i.id),
      ['b'],
    );
    await cache.close();
    await cache.close();
  });
});
