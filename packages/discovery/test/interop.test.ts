import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { firstValueFrom } from 'rxjs';
import { filter } from 'rxjs/operators';
import { ConnectionState, type FrameworkClient } from '@zkrecipes/framework';
import {
  killSession,
  TestingServer,
  timing,
  uniquePath,
  waitFor,
  type JavaPeer,
} from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import {
  buildUri,
  createServiceInstance,
  JsonInstanceSerializer,
  ServiceDiscovery,
  type ServiceInstance,
  type ServiceInstanceOptions,
} from '../src/index.js';
import { writeJson, type JsonValue } from '@zkrecipes/framework/recipe-support';
import { b64, bytesFromOk, fromOk, startDiscoveryPeer } from './helpers.js';

/** Every field as the peer's `describe` lists them (Java nulls as null). */
function describeOurs(instance: ServiceInstance): unknown {
  return {
    name: instance.name,
    id: instance.id,
    address: instance.address ?? null,
    port: instance.port ?? null,
    sslPort: instance.sslPort ?? null,
    payload: instance.payload ?? null,
    payloadClass: instance.payload === undefined ? null : 'java.util.LinkedHashMap',
    registrationTimeUTC: instance.registrationTimeUTC,
    serviceType: instance.serviceType,
    uriSpec: instance.uriSpec?.parts.map((p) => ({ value: p.value, variable: p.variable })) ?? null,
    uri: buildUri(instance),
    enabled: instance.enabled,
  };
}

const byId = (a: ServiceInstance, b: ServiceInstance): number => (a.id < b.id ? -1 : 1);

describe('discovery interop with Apache Curator 5.4 (curator-x-discovery)', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  let peer: JavaPeer;
  let base: string;
  before(async () => {
    server = await TestingServer.start();
    client = await startClient(server.connectString);
    base = uniquePath('interop-services');
    peer = await startDiscoveryPeer(server.connectString, base);
  });
  after(async () => {
    await peer.close();
    await client.close();
    await server.close();
  });

  it('serializes byte for byte as JsonInstanceSerializer, in compatible mode and with enabled', async () => {
    const specs = [
      {
        name: 'api',
        id: 'api-1',
        address: '127.0.0.1',
        port: 8080,
        sslPort: 8443,
        payload: { zone: 'eu-1', weight: 3, tags: ['a', 'b'], nested: { ok: true, none: null } },
        registrationTimeUTC: 1795508236903,
        serviceType: 'DYNAMIC',
        uriSpec: '{scheme}://{address}:{port}/x{[}y{]}',
      },
      { name: 'bare', id: 'b', address: null, registrationTimeUTC: 0, serviceType: 'STATIC' },
      {
        name: 'text',
        id: 'é-/-x'.replace('/', '_'),
        address: 'h\u2028ost <&> / é \u{1F600} "q" \\ \u0001\u001f\n\t\r\b\f\u007f',
        payload: { 'k"ey': 'v\u2028', '': '', 'x/y': '\u{1F600}' },
        registrationTimeUTC: 1,
        serviceType: 'PERMANENT',
        enabled: false,
      },
      {
        name: 'numbers',
        id: 'n',
        address: '::1',
        port: 1,
        payload: {
          a: 1.5,
          b: 1e20,
          c: 1e-5,
          d: -0.25,
          e: 1234567.5,
          f: 0.001,
          g: 1e7,
          h: 2 ** 53 + 2,
          i: 12345678901234567890n,
          j: -7,
        },
        registrationTimeUTC: 1795508236903,
        serviceType: 'DYNAMIC_SEQUENTIAL',
        uriSpec: '{ scheme }:{unknown}',
      },
    ];
    for (const compatibleMode of [true, false]) {
      const serializer = new JsonInstanceSerializer({ compatibleMode });
      for (const spec of specs) {
        const ours = serializer.serialize(
          createServiceInstance(spec as unknown as ServiceInstanceOptions),
        );
        // Sent as we write JSON, so Java's values are the ones our bytes stand for.
        const sent = Buffer.from(writeJson(spec as unknown as JsonValue, 'spec')).toString(
          'base64',
        );
        const theirs = bytesFromOk(await peer.request(`serialize ${compatibleMode} ${sent}`));
        assert.equal(
          ours.toString(),
          theirs.toString(),
          `${spec.name}, compatible ${compatibleMode}`,
        );
        assert.deepEqual(ours, theirs);
      }
    }
  });

  it('an instance Curator registers is found by queryForInstances and our cache with every field equal', async () => {
    await using discovery = new ServiceDiscovery(client, base);
    await discovery.start();
    const cache = discovery.serviceCache('java-made');
    await cache.start({ timeoutMs: 5000 });
    const spec = {
      name: 'java-made',
      id: 'j-1',
      address: '10.0.0.7',
      port: 9000,
      sslPort: 9443,
      payload: { zone: 'eu-1', weight: 3, tags: ['a', 'b'] },
      serviceType: 'DYNAMIC',
      uriSpec: '{scheme}://{address}:{ssl-port}/{name}',
    };
    await peer.request(`register ${b64(spec)}`);
    await peer.request(`register ${b64({ ...spec, id: 's', serviceType: 'DYNAMIC_SEQUENTIAL' })}`);
    const javaView = fromOk(await peer.request('query java-made'));
    const ours = (await discovery.queryForInstances('java-made')).sort(byId);
    assert.equal(ours.length, 2);
    assert.deepEqual(ours.map(describeOurs), javaView);
    assert.equal(ours[0]?.uriSpec && buildUri(ours[0]), 'https://10.0.0.7:9443/java-made');
    const cached = await firstValueFrom(cache.instances.pipe(filter((list) => list.length === 2)));
    assert.deepEqual([...cached].sort(byId).map(describeOurs), javaView);
    // Curator names a sequential node `s0000000000` while its JSON says "s".
    const names = await client.getChildren(`${base}/java-made`);
    assert.equal(names.filter((n) => /^s\d{10}$/.test(n)).length, 1, names.join(','));
    assert.equal(
      (await discovery.queryForInstance('java-made', 'j-1'))?.registrationTimeUTC,
      ours[0]?.registrationTimeUTC,
    );
  });

  it('an instance we register is found by Curator with every field equal, enabled included', async () => {
    const serializer = new JsonInstanceSerializer({ compatibleMode: false });
    await using discovery = new ServiceDiscovery(client, base, { serializer });
    await discovery.start();
    const instances = [
      createServiceInstance({
        name: 'node-made',
        id: 'n-1',
        address: '10.0.0.8',
        port: 8080,
        payload: { zone: 'eu-2', weight: 1.5, tags: [] },
        uriSpec: '{scheme}://{address}:{port}',
        enabled: false,
      }),
      createServiceInstance({ name: 'node-made', id: 'n-2', serviceType: 'STATIC' }),
    ];
    for (const instance of instances)
      await discovery.registerService(instance, { timeoutMs: 5000 });
    const javaView = fromOk(await peer.request('query node-made'));
    assert.deepEqual(javaView, instances.map(describeOurs));
    const [first] = javaView as { uri: string; enabled: boolean }[];
    assert.equal(first?.uri, 'http://10.0.0.8:8080');
    assert.equal(first?.enabled, false);
  });

  it("updateService on either side is seen by the other side's ServiceCache", async () => {
    await using discovery = new ServiceDiscovery(client, base);
    await discovery.start();
    const cache = discovery.serviceCache('updates');
    await cache.start({ timeoutMs: 5000 });
    assert.equal(await peer.request('cache updates'), 'OK');

    const spec = { name: 'updates', id: 'java', address: 'a', port: 1, registrationTimeUTC: 5 };
    await peer.request(`register ${b64(spec)}`);
    await firstValueFrom(cache.instances.pipe(filter((l) => l.some((i) => i.id === 'java'))));
    await peer.request(`update ${b64({ ...spec, port: 2, payload: { v: 2 } })}`);
    const updated = await firstValueFrom(
      cache.instances.pipe(filter((l) => l.some((i) => i.id === 'java' && i.port === 2))),
    );
    assert.deepEqual(updated.find((i) => i.id === 'java')?.payload, { v: 2 });

    const ours = createServiceInstance({ name: 'updates', id: 'node', address: 'b', port: 1 });
    await discovery.registerService(ours);
    await discovery.updateService(createServiceInstance({ ...ours, port: 3, payload: { v: 3 } }));
    await waitFor(
      async () => {
        const view = fromOk(await peer.request('cache-get updates')) as {
          id: string;
          port: number;
          payload: unknown;
        }[];
        const node = view.find((i) => i.id === 'node');
        return node?.port === 3 && JSON.stringify(node.payload) === '{"v":3}';
      },
      { message: "Curator's cache to see our update" },
    );
  });

  it("Curator's close() removes its DYNAMIC and STATIC instances but misses a DYNAMIC_SEQUENTIAL node; ours removes all", async () => {
    const closing = await startDiscoveryPeer(server.connectString, base);
    try {
      for (const [id, serviceType] of [
        ['dyn', 'DYNAMIC'],
        ['stat', 'STATIC'],
        ['seq', 'DYNAMIC_SEQUENTIAL'],
      ] as const) {
        await closing.request(`register ${b64({ name: 'closing', id, serviceType })}`);
      }
      assert.equal(await closing.request('close'), 'OK');
      const left = await client.getChildren(`${base}/closing`);
      assert.equal(left.length, 1, left.join(','));
      assert.match(left[0] ?? '', /^seq\d{10}$/);
    } finally {
      await closing.close();
    }
    await using discovery = new ServiceDiscovery(client, base);
    await discovery.start();
    for (const [id, serviceType] of [
      ['dyn', 'DYNAMIC'],
      ['stat', 'STATIC'],
      ['seq', 'DYNAMIC_SEQUENTIAL'],
    ] as const) {
      await discovery.registerService(
        createServiceInstance({ name: 'ours-closing', id, serviceType }),
      );
    }
    assert.equal((await client.getChildren(`${base}/ours-closing`)).length, 3);
    await discovery.close();
    assert.deepEqual(await client.getChildren(`${base}/ours-closing`), []);
  });

  it('a SIGKILLed Java service leaves our ServiceCache once its session expires', async (t) => {
    const sessionTimeoutMs = 2000;
    const doomed = await startDiscoveryPeer(server.connectString, base, { sessionTimeoutMs });
    await using discovery = new ServiceDiscovery(client, base);
    await discovery.start();
    const cache = discovery.serviceCache('killed');
    await cache.start({ timeoutMs: 5000 });
    try {
      await doomed.request(`register ${b64({ name: 'killed', id: 'victim', port: 7 })}`);
      await firstValueFrom(cache.instances.pipe(filter((l) => l.length === 1)));
      await doomed.kill('SIGKILL');
      const killedAt = performance.now();
      await firstValueFrom(cache.instances.pipe(filter((l) => l.length === 0)));
      const goneAfterMs = performance.now() - killedAt;
      t.diagnostic(`gone from our cache ${Math.round(goneAfterMs)} ms after the SIGKILL`);
      // The server expires it after about the session timeout (its ticks round it up).
      assert.ok(goneAfterMs >= sessionTimeoutMs / 2, `gone after ${goneAfterMs} ms`);
      assert.ok(goneAfterMs < timing.ms(sessionTimeoutMs * 3), `gone after ${goneAfterMs} ms`);
    } finally {
      await doomed.close();
    }
  });

  it('our killed session: the registration is back within a second of the new session and Curator sees it again', async (t) => {
    const ours = await startClient(server.connectString, { sessionTimeoutMs: 4000 });
    try {
      await using discovery = new ServiceDiscovery(ours, base);
      await discovery.start();
      await discovery.registerService(
        createServiceInstance({ name: 'phoenix', id: 'p-1', address: 'x', port: 80 }),
      );
      const seen = async (): Promise<boolean> =>
        (fromOk(await peer.request('query phoenix')) as unknown[]).length === 1;
      await waitFor(seen, { message: 'Curator to see it first' });
      const before = await client.exists(`${base}/phoenix/p-1`);
      const oldSession = ours.sessionCredentials()?.sessionId;
      // The first RECONNECTED may still be the old session (taken over, not yet closed).
      const reconnected = firstValueFrom(
        ours.connectionStates.pipe(
          filter(
            (s) =>
              s === ConnectionState.RECONNECTED &&
              ours.sessionCredentials()?.sessionId !== oldSession,
          ),
        ),
      );
      await killSession(ours, server.connectString);
      await reconnected;
      const newSessionAt = performance.now();
      const newSession = ours.sessionCredentials()?.sessionId;
      assert.notEqual(newSession, before?.ephemeralOwner);
      const stat = await waitFor(
        async () => {
          const now = await client.exists(`${base}/phoenix/p-1`);
          return now?.ephemeralOwner === newSession && now;
        },
        { intervalMs: 5, message: 'the registration back under the new session' },
      );
      const backAfterMs = performance.now() - newSessionAt;
      t.diagnostic(`registration back ${backAfterMs.toFixed(1)} ms after the new session`);
      assert.ok(backAfterMs < 1000, `back ${backAfterMs} ms after the new session`);
      assert.ok(stat.czxid > (before?.czxid ?? 0n), 'a new node');
      await waitFor(seen, { message: 'Curator to see it again' });
      const javaView = fromOk(await peer.request('query phoenix')) as {
        id: string;
        port: number;
      }[];
      assert.deepEqual(
        javaView.map((i) => [i.id, i.port]),
        [['p-1', 80]],
      );
    } finally {
      await ours.close();
    }
  });

  it("round robin over 3 Java and 3 Node instances visits each once per cycle, ours and Curator's", async () => {
    await using discovery = new ServiceDiscovery(client, base);
    await discovery.start();
    for (const id of ['n1', 'n2', 'n3']) {
      await discovery.registerService(createServiceInstance({ name: 'rr', id, port: 1 }));
    }
    for (const id of ['j1', 'j2', 'j3']) {
      await peer.request(`register ${b64({ name: 'rr', id, port: 2 })}`);
    }
    const provider = discovery.serviceProvider('rr');
    await provider.start({ timeoutMs: 5000 });
    await waitFor(() => provider.getAllInstances().length === 6, { message: 'six instances' });
    const all = ['j1', 'j2', 'j3', 'n1', 'n2', 'n3'];
    for (let cycle = 0; cycle < 3; cycle++) {
      const picked = Array.from({ length: 6 }, () => provider.getInstance()?.id ?? '-');
      assert.deepEqual([...picked].sort(), all, `cycle ${cycle}: ${picked.join(',')}`);
    }
    assert.equal(await peer.request('provider rr'), 'OK');
    await waitFor(async () => !(await peer.request('provider-next rr 1')).includes('-'), {
      message: "Curator's provider loaded",
    });
    for (let cycle = 0; cycle < 3; cycle++) {
      const picked = (await peer.request('provider-next rr 6')).slice(3).split(',');
      assert.deepEqual(picked.sort(), all, `Curator's cycle ${cycle}`);
    }
  });
});
