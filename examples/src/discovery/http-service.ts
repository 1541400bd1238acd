/**
 * A Node HTTP service that registers itself in Curator's service discovery, so Java services
 * using curator-x-discovery (and Node clients, see http-client.ts) find it.
 *
 *   node examples/dist/src/discovery/http-service.js --connect 127.0.0.1:2181 [--name greeter]
 *        [--base /services] [--port 0] [--id ID]
 *
 * It listens on 127.0.0.1 (port 0: any free port), registers
 * `<base>/<name>/<id>` with the uriSpec `{scheme}://{address}:{port}`, prints
 * `registered <name>/<id> at <uri>` and serves until SIGTERM or SIGINT, which close the
 * discovery (unregistering the instance) and the client before exiting.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createFramework, ExponentialBackoffRetry } from '@zkrecipes/framework';
import { buildUri, createServiceInstance, ServiceDiscovery } from '@zkrecipes/discovery';

const { values } = parseArgs({
  options: {
    connect: { type: 'string', default: '127.0.0.1:2181' },
    name: { type: 'string', default: 'greeter' },
    base: { type: 'string', default: '/services' },
    port: { type: 'string', default: '0' },
    id: { type: 'string' },
  },
});

const server = createServer((request, response) => {
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify({ service: values.name, id: instance.id, path: request.url }));
});
server.listen(Number(values.port), '127.0.0.1');
await once(server, 'listening');
const { port } = server.address() as AddressInfo;

// closeOnExit: SIGTERM/SIGINT close the client (its ephemeral registration goes at once).
const client = createFramework({
  connectString: values.connect,
  retryPolicy: new ExponentialBackoffRetry({ baseSleepMs: 200, maxRetries: 5 }),
  closeOnExit: true,
});
await client.start({ timeoutMs: 10_000 });

const instance = createServiceInstance({
  name: values.name,
  id: values.id ?? `${values.name}-${port}`,
  address: '127.0.0.1',
  port,
  payload: { pid: process.pid, started: new Date().toISOString() },
  uriSpec: '{scheme}://{address}:{port}',
});
const discovery = new ServiceDiscovery(client, values.base);
await discovery.start();
await discovery.registerService(instance, { timeoutMs: 15_000 });
console.log(`registered ${instance.name}/${instance.id} at ${buildUri(instance)}`);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.close();
    // Unregisters; the client's own exit hook closes the client after this.
    void discovery.close();
  });
}
