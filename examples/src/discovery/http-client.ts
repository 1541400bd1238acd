/**
 * A Node client that finds a service through Curator's service discovery, whether a Node
 * service (http-service.ts) or a Java one registered with curator-x-discovery, and calls it.
 *
 *   node examples/dist/src/discovery/http-client.js --connect 127.0.0.1:2181 [--name greeter]
 *        [--base /services] [--calls 3] [--wait-ms 10000]
 *
 * It starts a round-robin ServiceProvider, waits (up to --wait-ms) for an instance, then makes
 * --calls GET requests, each to the instance the provider hands out, printing
 * `<uri> -> <status> <body>`. A failed call is noted (noteError), so after two failures an
 * instance is left out for 30 s, as with Curator's default DownInstancePolicy.
 */
import { parseArgs } from 'node:util';
import { firstValueFrom, timeout } from 'rxjs';
import { filter } from 'rxjs/operators';
import { createFramework, ExponentialBackoffRetry } from '@zkrecipes/framework';
import { buildUri, ServiceDiscovery } from '@zkrecipes/discovery';

const { values } = parseArgs({
  options: {
    connect: { type: 'string', default: '127.0.0.1:2181' },
    name: { type: 'string', default: 'greeter' },
    base: { type: 'string', default: '/services' },
    calls: { type: 'string', default: '3' },
    'wait-ms': { type: 'string', default: '10000' },
  },
});
const waitMs = Number(values['wait-ms']);

const client = createFramework({
  connectString: values.connect,
  retryPolicy: new ExponentialBackoffRetry({ baseSleepMs: 200, maxRetries: 5 }),
});
await client.start({ timeoutMs: 10_000 });
await using discovery = new ServiceDiscovery(client, values.base);
await discovery.start();
const provider = discovery.serviceProvider(values.name);
await provider.start({ timeoutMs: waitMs });
await firstValueFrom(
  provider.instances.pipe(
    filter(() => provider.getAllInstances().length > 0),
    timeout({ first: waitMs }),
  ),
);

for (let call = 0; call < Number(values.calls); call++) {
  const instance = provider.getInstance();
  if (instance === undefined) {
    console.log('no usable instance');
    break;
  }
  const uri = buildUri(instance);
  try {
    const response = await fetch(`${uri}/hello`, { signal: AbortSignal.timeout(5000) });
    console.log(`${uri} -> ${response.status} ${await response.text()}`);
  } catch (error) {
    provider.noteError(instance);
    console.log(`${uri} -> failed: ${(error as Error).message}`);
  }
}
await discovery.close();
await client.close();
