import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  InvalidArgumentError,
  MAX_NODE_DATA_BYTES,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { mntr, TestingServer, uniquePath } from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import {
  buildUri,
  createServiceInstance,
  JsonInstanceSerializer,
  RandomStrategy,
  RoundRobinStrategy,
  ServiceCache,
  ServiceDiscovery,
  ServiceProvider,
  StickyStrategy,
  UriSpec,
  type ServiceInstance,
  type ServiceInstanceOptions,
} from '../src/index.js';

const invalid = (options: unknown): (() => unknown) => {
  return () => createServiceInstance(options as ServiceInstanceOptions);
};

describe('discovery bad input', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  /**
   * Writes and watches the server took on from `work` (`mntr`; pings count as reads, so reads
   * are not counted): a read on `client` before and after each reaches the server after anything
   * queued before it.
   */
  const requestsDuring = async (work: () => Promise<void>): Promise<number> => {
    const count = async (): Promise<number> => {
      const stats = await mntr(server.host, server.port);
      return (
        (stats.get('cnt_updatelatency') ?? Number.NaN) + (stats.get('watch_count') ?? Number.NaN)
      );
    };
    await client.exists('/'); // what earlier calls left queued (a node's watch) goes first
    const before = await count();
    await work();
    await client.exists('/');
    return (await count()) - before;
  };
  const reason = new Error('aborted before the call');
  const aborted = AbortSignal.abort(reason);
  before(async () => {
    server = await TestingServer.start();
    client = await startClient(server.connectString);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('createServiceInstance rejects bad names, ids, ports, types, times, payloads and uriSpecs', () => {
    const cases: unknown[] = [
      undefined,
      'api',
      { name: '' },
      { name: 'a/b' },
      { name: '..' },
      { name: 42 },
      { name: 'bad\u0001char' },
      { name: 'api', id: '' },
      { name: 'api', id: 'x/y' },
      { name: 'api', port: 0 },
      { name: 'api', port: 65536 },
      { name: 'api', port: 80.5 },
      { name: 'api', port: '80' },
      { name: 'api', sslPort: -1 },
      { name: 'api', serviceType: 'EPHEMERAL' },
      { name: 'api', registrationTimeUTC: -1 },
      { name: 'api', registrationTimeUTC: 1.5 },
      { name: 'api', payload: [1, 2] },
      { name: 'api', payload: 'text' },
      { name: 'api', uriSpec: '{scheme' },
      { name: 'api', uriSpec: 'x}' },
      { name: 'api', uriSpec: '{a{b}}' },
      { name: 'api', uriSpec: 42 },
      { name: 'api', enabled: 'yes' },
      { name: 'api', address: 42 },
    ];
    for (const options of cases) {
      assert.throws(invalid(options), InvalidArgumentError, JSON.stringify(options));
    }
    // An empty id is allowed for DYNAMIC_SEQUENTIAL: the node is then just the counter.
    assert.equal(
      createServiceInstance({ name: 'api', id: '', serviceType: 'DYNAMIC_SEQUENTIAL' }).id,
      '',
    );
  });

  it('payloads that do not serialize fail in the serializer with InvalidArgumentError', () => {
    const serializer = new JsonInstanceSerializer();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const payloads: unknown[] = [
      { f: () => 1 },
      { u: undefined },
      { n: Number.NaN },
      { i: Number.POSITIVE_INFINITY },
      { s: Symbol('x') },
      { d: new Date(0) },
      { lone: '\uD83D' },
      { '\uDE00': 'lone in a key' },
      cyclic,
      { '@class': 'com.example.Mine' },
      { big: 'x'.repeat(MAX_NODE_DATA_BYTES) },
    ];
    for (const payload of payloads) {
      const instance = createServiceInstance({
        name: 'api',
        payload: payload as ServiceInstanceOptions['payload'],
      });
      assert.throws(() => serializer.serialize(instance), InvalidArgumentError);
    }
    assert.throws(
      () => new JsonInstanceSerializer({ payloadClass: 'not a class' }),
      InvalidArgumentError,
    );
    assert.throws(
      () => new JsonInstanceSerializer({ compatibleMode: 'yes' as never }),
      InvalidArgumentError,
    );
  });

  it('ServiceDiscovery rejects bad arguments before anything is sent', async () => {
    const base = uniquePath('bad');
    assert.throws(() => new ServiceDiscovery({} as FrameworkClient, base), InvalidArgumentError);
    assert.throws(() => new ServiceDiscovery(client, 'relative'), InvalidArgumentError);
    assert.throws(
      () => new ServiceDiscovery(client, base, { serialiser: {} } as never),
      /ServiceDiscovery: unknown option 'serialiser' \(did you mean 'serializer'\?\)/,
    );
    assert.throws(() => new ServiceDiscovery(client, '/'), InvalidArgumentError);
    assert.throws(() => new ServiceDiscovery(client, `${base}/`), InvalidArgumentError);
    assert.throws(
      () => new ServiceDiscovery(client, base, { serializer: {} as JsonInstanceSerializer }),
      InvalidArgumentError,
    );
    assert.throws(
      () =>
        new ServiceDiscovery(client, base, {
          thisInstance: createServiceInstance({ name: 'x', payload: { u: undefined as never } }),
        }),
      InvalidArgumentError,
    );
    await using discovery = new ServiceDiscovery(client, base);
    await discovery.start();
    const good = createServiceInstance({ name: 'api', id: 'a' });
    const forged = { ...good, id: 'x/y' } as ServiceInstance;
    const huge = createServiceInstance({ name: 'api', payload: { big: 'x'.repeat(1_100_000) } });
    await assert.rejects(discovery.registerService(forged), InvalidArgumentError);
    await assert.rejects(discovery.registerService(huge), InvalidArgumentError);
    await assert.rejects(discovery.registerService(null as never), InvalidArgumentError);
    await assert.rejects(discovery.registerService(good, { timeoutMs: -1 }), InvalidArgumentError);
    await assert.rejects(
      discovery.registerService(good, { signal: 'x' as never }),
      InvalidArgumentError,
    );
    await assert.rejects(discovery.updateService(huge), InvalidArgumentError);
    await assert.rejects(discovery.queryForInstances('a/b'), InvalidArgumentError);
    await assert.rejects(discovery.queryForInstance('api', ''), InvalidArgumentError);
    await assert.rejects(discovery.queryForNames([] as never), InvalidArgumentError);
    await assert.rejects(discovery.unregisterService(42 as never), InvalidArgumentError);
    assert.throws(() => discovery.serviceCache('a/b'), InvalidArgumentError);
    assert.throws(
      () => discovery.serviceProvider('api', { strategy: {} as never }),
      InvalidArgumentError,
    );
    assert.throws(
      () => discovery.serviceProvider('api', { downInstancePolicy: { errorThreshold: 0 } }),
      InvalidArgumentError,
    );
    assert.throws(
      () => discovery.serviceProvider('api', { filters: [42] as never }),
      InvalidArgumentError,
    );
    const cache = discovery.serviceCache('api');
    assert.throws(() => cache.on('changed' as never, () => undefined), InvalidArgumentError);
    // Nothing reached the server.
    assert.equal(await client.exists(base), null);
  });

  it('registerService, updateService and start given an aborted signal reject with its reason, with nothing sent', async () => {
    const base = uniquePath('aborted');
    await using discovery = new ServiceDiscovery(client, base);
    await discovery.start();
    const registered = createServiceInstance({ name: 'api', id: 'a' });
    await discovery.registerService(registered);
    const other = createServiceInstance({ name: 'api', id: 'b' });
    const thisInstance = createServiceInstance({ name: 'api', id: 'c' });
    const later = new ServiceDiscovery(client, base, { thisInstance });
    const sent = await requestsDuring(async () => {
      const isReason = (error: unknown): boolean => error === reason;
      await assert.rejects(discovery.registerService(other, { signal: aborted }), isReason);
      await assert.rejects(discovery.registerService(registered, { signal: aborted }), isReason);
      await assert.rejects(discovery.updateService(registered, { signal: aborted }), isReason);
      await assert.rejects(later.start({ signal: aborted }), isReason);
    });
    assert.equal(sent, 0);
    assert.deepEqual(
      discovery.getRegisteredInstances().map((i) => i.id),
      ['a'],
    );
    // Still LATENT: a start without the aborted signal registers thisInstance.
    await later.start();
    assert.deepEqual(
      (await discovery.queryForInstances('api')).map((i) => i.id),
      ['a', 'c'],
    );
    await later.close();
  });

  it('instances not made by createServiceInstance get its field checks in registerService, updateService and thisInstance, with nothing sent', async () => {
    const base = uniquePath('handmade');
    await using discovery = new ServiceDiscovery(client, base);
    await discovery.start();
    const good = createServiceInstance({ name: 'api', id: 'a', port: 80 });
    // A hand-made instance with every field right is registered as it is.
    const handMade: ServiceInstance = {
      name: 'api',
      id: 'h',
      address: 'h.example',
      port: 81,
      sslPort: undefined,
      payload: { zone: 'z' },
      registrationTimeUTC: 5,
      serviceType: 'STATIC',
      uriSpec: new UriSpec('{scheme}://{address}:{port}'),
      enabled: true,
    };
    await discovery.registerService(good);
    await discovery.registerService(handMade);
    const changes: [string, unknown][] = [
      ['serviceType', 'BOGUS'],
      ['serviceType', undefined],
      ['port', 'x'],
      ['port', 70000],
      ['sslPort', 0],
      ['address', 42],
      ['address', null],
      ['enabled', 'no'],
      ['enabled', undefined],
      ['uriSpec', '{scheme}://x'],
      ['uriSpec', {}],
      ['registrationTimeUTC', Number.NaN],
      ['registrationTimeUTC', '5'],
      ['payload', 42],
    ];
    const sent = await requestsDuring(async () => {
      for (const [field, value] of changes) {
        const bad = { ...good, [field]: value } as ServiceInstance;
        const isInvalid = (error: unknown): boolean => {
          assert.ok(error instanceof InvalidArgumentError, `${field}: ${String(error)}`);
          assert.match(error.message, new RegExp(`instance ${field}`), field);
          return true;
        };
        await assert.rejects(discovery.registerService({ ...bad, id: 'b' }), isInvalid);
        await assert.rejects(discovery.registerService(bad), isInvalid);
        await assert.rejects(discovery.updateService(bad), isInvalid);
        assert.throws(() => new ServiceDiscovery(client, base, { thisInstance: bad }), isInvalid);
      }
    });
    assert.equal(sent, 0);
    assert.deepEqual(
      (await discovery.queryForInstances('api')).map((i) => [i.id, i.port, i.serviceType]),
      [
        ['a', 80, 'DYNAMIC'],
        ['h', 81, 'STATIC'],
      ],
    );
  });

  it('ServiceCache and ServiceProvider given something that is not a ServiceDiscovery throw InvalidArgumentError', () => {
    for (const notDiscovery of [null, undefined, 42, {}, 'discovery', client]) {
      for (const [recipe, construct] of [
        ['ServiceCache', () => new ServiceCache(notDiscovery as never, 'svc')],
        ['ServiceProvider', () => new ServiceProvider(notDiscovery as never, 'svc')],
      ] as const) {
        assert.throws(construct, (error) => {
          assert.ok(error instanceof InvalidArgumentError, `${recipe}: ${String(error)}`);
          assert.match(
            error.message,
            new RegExp(`^INVALID_ARGUMENT: ${recipe} needs a ServiceDiscovery`),
          );
          return true;
        });
      }
    }
  });

  it('cache and provider start() given an aborted signal reject with its reason, with nothing sent, and stay LATENT', async () => {
    const base = uniquePath('aborted-cache');
    await using discovery = new ServiceDiscovery(client, base);
    await discovery.start();
    const cache = discovery.serviceCache('api');
    const provider = discovery.serviceProvider('api');
    const sent = await requestsDuring(async () => {
      const isReason = (error: unknown): boolean => error === reason;
      await assert.rejects(cache.start({ signal: aborted }), isReason);
      await assert.rejects(provider.start({ signal: aborted }), isReason);
    });
    assert.equal(sent, 0);
    assert.equal(cache.state, 'LATENT');
    assert.equal(provider.state, 'LATENT');
    // A start without the aborted signal then works.
    await cache.start();
    await provider.start();
    assert.equal(provider.state, 'STARTED');
  });

  it('the serializer, buildUri, UriSpec.build and the strategies given values of the wrong type throw InvalidArgumentError', () => {
    const serializer = new JsonInstanceSerializer();
    const instance = createServiceInstance({ name: 'api', port: 80, uriSpec: '{port}' });
    const spec = new UriSpec('{scheme}://{address}:{port}/');
    const throwsInvalid = (call: () => unknown, what: string): void => {
      assert.throws(
        call,
        (error) => {
          assert.ok(error instanceof InvalidArgumentError, `${what}: ${String(error)}`);
          return true;
        },
        what,
      );
    };
    for (const value of [null, undefined, 42, 'x', {}, []]) {
      const what = JSON.stringify(value) ?? typeof value;
      throwsInvalid(() => serializer.serialize(value as never), `serialize(${what})`);
      if (typeof value !== 'object' || value === null) {
        throwsInvalid(() => buildUri(value as never), `buildUri(${what})`);
      }
    }
    for (const value of [null, undefined, 42, {}, 'x', [1]]) {
      const what = JSON.stringify(value) ?? typeof value;
      throwsInvalid(() => serializer.deserialize(value as never), `deserialize(${what})`);
    }
    for (const value of [null, 42, 'x']) {
      const what = JSON.stringify(value);
      throwsInvalid(() => buildUri(instance, value as never), `buildUri(instance, ${what})`);
      throwsInvalid(() => spec.build(value as never), `build(${what})`);
      throwsInvalid(() => spec.build(undefined, value as never), `build(undefined, ${what})`);
    }
    throwsInvalid(() => buildUri({ ...instance, uriSpec: '{port}' } as never), 'uriSpec string');
    for (const strategy of [new RoundRobinStrategy(), new RandomStrategy(), new StickyStrategy()]) {
      for (const value of [undefined, null, 'x', 42, {}]) {
        const what = `${strategy.constructor.name}.getInstance(${JSON.stringify(value)})`;
        throwsInvalid(() => strategy.getInstance(value as never), what);
      }
    }
    // The right types still work, and the bytes are Curator's.
    assert.equal(buildUri(instance), '80');
    assert.equal(spec.build(undefined), 'http://:/');
    assert.deepEqual(serializer.deserialize(serializer.serialize(instance)), instance);
    assert.equal(new RoundRobinStrategy().getInstance([instance]), instance);
  });

  /** Asserts `call` throws InvalidArgumentError naming `recipe`, the unknown `key` and `meant`. */
  const refusesOption = (call: () => unknown, recipe: string, key: string, meant: string): void => {
    assert.throws(call, (error) => {
      assert.ok(error instanceof InvalidArgumentError, `${recipe} ${key}: ${String(error)}`);
      assert.ok(
        error.message.includes(`${recipe}: unknown option '${key}' (did you mean '${meant}'?)`),
        error.message,
      );
      return true;
    });
  };

  it('createServiceInstance refuses an unknown option, naming it and the one meant', () => {
    refusesOption(
      () => createServiceInstance({ name: 'svc', prot: 80 } as never),
      'createServiceInstance',
      'prot',
      'port',
    );
    refusesOption(
      () => createServiceInstance({ name: 'svc', sslport: 443 } as never),
      'createServiceInstance',
      'sslport',
      'sslPort',
    );
    // A key set to undefined counts as absent; an instance's own fields are all options.
    const made = createServiceInstance({ name: 'svc', port: 80, prot: undefined } as never);
    assert.equal(createServiceInstance({ ...made, port: 81 }).port, 81);
  });

  it('JsonInstanceSerializer refuses an unknown option, naming it and the one meant', () => {
    refusesOption(
      () => new JsonInstanceSerializer({ compatiblemode: false } as never),
      'JsonInstanceSerializer',
      'compatiblemode',
      'compatibleMode',
    );
    refusesOption(
      () => new JsonInstanceSerializer({ payloadClas: 'com.example.P' } as never),
      'JsonInstanceSerializer',
      'payloadClas',
      'payloadClass',
    );
  });

  it('serviceCache and the ServiceCache constructor refuse an unknown option, naming it and the one meant', async () => {
    await using discovery = new ServiceDiscovery(client, uniquePath('cache-keys'));
    await discovery.start();
    refusesOption(
      () => discovery.serviceCache('api', { concurency: 2 } as never),
      'ServiceCache',
      'concurency',
      'concurrency',
    );
    refusesOption(
      () => new ServiceCache(discovery, 'api', { concurency: 2 } as never),
      'ServiceCache',
      'concurency',
      'concurrency',
    );
  });

  it('serviceProvider and the ServiceProvider constructor refuse an unknown option, naming it and the one meant', async () => {
    await using discovery = new ServiceDiscovery(client, uniquePath('provider-keys'));
    await discovery.start();
    const strategy = new RandomStrategy();
    refusesOption(
      () => discovery.serviceProvider('api', { stratgy: strategy } as never),
      'ServiceProvider',
      'stratgy',
      'strategy',
    );
    refusesOption(
      () => new ServiceProvider(discovery, 'api', { filter: [] } as never),
      'ServiceProvider',
      'filter',
      'filters',
    );
  });

  it('the provider refuses an unknown downInstancePolicy option, naming it and the one meant', async () => {
    await using discovery = new ServiceDiscovery(client, uniquePath('policy-keys'));
    await discovery.start();
    refusesOption(
      () => discovery.serviceProvider('api', { downInstancePolicy: { timeout: 5 } as never }),
      'downInstancePolicy',
      'timeout',
      'timeoutMs',
    );
    refusesOption(
      () =>
        new ServiceProvider(discovery, 'api', {
          downInstancePolicy: { errorTreshold: 1 } as never,
        }),
      'downInstancePolicy',
      'errorTreshold',
      'errorThreshold',
    );
  });

  it('noteError refuses what is not an instance with InvalidArgumentError', async () => {
    await using discovery = new ServiceDiscovery(client, uniquePath('note-error'));
    await discovery.start();
    const provider = discovery.serviceProvider('api');
    for (const value of [{}, [], { name: 'api' }, { id: 'a' }, { name: 1, id: 'a' }, null, 42]) {
      const what = JSON.stringify(value);
      assert.throws(
        () => provider.noteError(value as never),
        (error) => {
          assert.ok(error instanceof InvalidArgumentError, `${what}: ${String(error)}`);
          assert.match(error.message, /noteError\(\) needs an instance/, what);
          return true;
        },
        what,
      );
    }
    provider.noteError(createServiceInstance({ name: 'api', id: 'a' }));
  });

  it('UriSpec builds as Curator does', () => {
    const spec = new UriSpec('{scheme}://{address}:{port}{[}{missing}{]}/{ name }');
    const instance = createServiceInstance({ name: 'api', address: 'h', port: 80 });
    assert.equal(spec.build(instance), 'http://h:80{}/api');
    assert.equal(
      spec.build(createServiceInstance({ name: 'api', address: 'h', port: 80, sslPort: 443 })),
      'https://h:80{}/api',
    );
    assert.equal(spec.build(undefined, { address: 'x', port: 1 }), 'http://x:1{}/');
    assert.equal(spec.toString(), '{scheme}://{address}:{port}{[}{missing}{]}/{name}');
  });
});
