/**
 * CPU per warm request in the client process: `node bench/dist/src/cpu-per-request.js
 * [--framework <path to a framework build's dist/src/index.js>] [--count N]`.
 *
 * Starts a TestingServer, then times N awaited requests one after the other (getData, exists,
 * getChildren) with `process.cpuUsage`: user + system microseconds of this
 * process per request, the server excluded (it runs in its own JVM). `--framework` loads
 * another build of the framework (an older commit's worktree) for a before/after comparison
 * in one run on one server.
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
    count: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '3' },
  },
});
const count = Number(values.count);
const rounds = Number(values.rounds);

const framework: Framework =
  values.framework === undefined
    ? await import('@zkrecipes/framework')
    : ((await import(pathToFileURL(values.framework).href)) as Framework);

/** Microseconds of this process's CPU per call of `request`, over `count` awaited calls. */
async function cpuPerCall(request: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 500; i++) await request(); // warm up: JIT, buffers
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) await request();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
}

const server = await TestingServer.start();
const client: Client = framework.createFramework({
  connectString: server.connectString,
  logger: framework.silentLogger,
});
try {
  await client.start();
  await client.blockUntilConnected({ timeoutMs: 10_000 });
  const path = `/cpu-${process.pid}`;
  await client.create(path, { data: Buffer.alloc(64, 1) });
  const requests: Record<string, () => Promise<unknown>> = {
    getData: () => client.getData(path),
    exists: () => client.exists(path),
    getChildren: () => client.getChildren(path),
  };
  for (const [name, request] of Object.entries(requests)) {
    const samples: number[] = [];
    for (let round = 0; round < rounds; round++) samples.push(await cpuPerCall(request));
    const shown = samples.map((us) => us.toFixed(1)).join(' / ');
    process.stdout.write(`${name.padEnd(14)} ${shown} us CPU per request (${count} each)\n`);
  }
} finally {
  await client.close();
  await server.close();
}
