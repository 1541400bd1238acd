/**
 * CPU per warm request in the client process: `node bench/dist/src/cpu-per-request.js
 * [--framework <path to a framework build's dist/src/index.js>] [--baseline <path>] [--count N]
 * [--rounds N]`.
 *
 * Starts a TestingServer, then times N awaited requests one after the other (getData, exists,
 * getChildren, setData) with `process.cpuUsage`: user + system microseconds of this process per
 * request, the server excluded (it runs in its own JVM). `--framework` loads another build of
 * the framework (an older commit's worktree). `--baseline` loads a second build next to the
 * first and alternates their rounds in this one process on one server, printing the median and
 * the minimum of each: on a machine shared with other work, separate runs of one build differ
 * more than two builds do, and interleaved short rounds see the same load.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type * as FrameworkModule from '@zkrecipes/framework';
import { TestingServer } from '@zkrecipes/testing';

type Framework = typeof FrameworkModule;
type Client = ReturnType<Framework['createFramework']>;

const { values } = parseArgs({
  options: {
    framework: { type: 'string' },
    baseline: { type: 'string' },
    count: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '3' },
  },
});
const count = Number(values.count);
const rounds = Number(values.rounds);

async function load(path: string | undefined): Promise<Framework> {
  if (path === undefined) return import('@zkrecipes/framework');
  return (await import(pathToFileURL(path).href)) as Framework;
}

/** The builds to time, by the name printed; the baseline (if any) first. */
const builds = new Map<string, Framework>();
if (values.baseline !== undefined) builds.set('baseline', await load(values.baseline));
builds.set(values.baseline === undefined ? '' : 'build', await load(values.framework));

/** Microseconds of this process's CPU per call of `request`, over `count` awaited calls. */
async function cpuPerCall(request: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) await request();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
}

function median(samples: readonly number[]): number {
  return [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
}

const server = await TestingServer.start();
const clients = new Map<string, Client>();
try {
  for (const [name, framework] of builds) {
    const client = framework.createFramework({
      connectString: server.connectString,
      logger: framework.silentLogger,
    });
    clients.set(name, client);
    await client.start();
    await client.blockUntilConnected({ timeoutMs: 10_000 });
  }
  const path = `/cpu-${process.pid}`;
  const data = Buffer.alloc(64, 1);
  await clients.values().next().value!.create(path, { data });
  const requests: Record<string, (client: Client) => Promise<unknown>> = {
    getData: (client) => client.getData(path),
    exists: (client) => client.exists(path),
    getChildren: (client) => client.getChildren(path),
    setData: (client) => client.setData(path, data),
  };
  for (const [name, request] of Object.entries(requests)) {
    const samples = new Map([...clients.keys()].map((build) => [build, [] as number[]]));
    for (const client of clients.values()) {
      for (let i = 0; i < 500; i++) await request(client); // warm up: JIT, buffers
    }
    for (let round = 0; round < rounds; round++) {
      // Alternate which build goes first, so neither always follows the same thing.
      const order = round % 2 === 0 ? [...clients] : [...clients].reverse();
      for (const [build, client] of order)
        samples.get(build)!.push(await cpuPerCall(() => request(client)));
    }
    for (const [build, us] of samples) {
      const label = `${name} ${build}`.trim().padEnd(20);
      const shown =
        clients.size === 1
          ? us.map((one) => one.toFixed(1)).join(' / ')
          : `median ${median(us).toFixed(1)} min ${Math.min(...us).toFixed(1)}`;
      process.stdout.write(`${label} ${shown} us CPU per request (${count} each)\n`);
    }
  }
} finally {
  for (const client of clients.values()) await client.close();
  await server.close();
}
