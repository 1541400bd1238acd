/**
 * `npm run bench`: the peer-bench scenarios with zkrecipes, printing the same JSON lines as
 * ../shared/peer-bench/CuratorBench.java. stdout carries only the JSON lines; progress goes to
 * stderr. Exit status: 0 all passed, 1 a FAIL or ERROR, 2 usage.
 */
import { randomBytes } from 'node:crypto';
import { createDefaultLogger } from '@zkrecipes/framework';
import { TestingServer } from '@zkrecipes/testing';
import { BenchContext } from './bench-context.js';
import { parseCliArgs, USAGE, UsageError, type CliArgs } from './cli-args.js';
import { errorLine, formatResultLine } from './result-line.js';
import { emitsOf, selectScenarios } from './scenario.js';
import { PEER_SCENARIOS, SCENARIOS } from './scenarios/index.js';

function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

async function run(args: CliArgs): Promise<number> {
  const selected = selectScenarios(SCENARIOS, PEER_SCENARIOS, args.scenarios);
  // Configured as the peer's own server (run-curator.sh): ZooKeeper's default forceSync=yes,
  // not the test harness's forceSync=no, so that standalone figures compare with the peer's.
  const server =
    args.connect === undefined
      ? await TestingServer.start({ properties: { forceSync: 'yes' }, tls: args.tls || undefined })
      : undefined;
  const connectString =
    args.connect ?? (args.tls ? server!.secureConnectString : server!.connectString);
  const tls = args.tls ? { ca: server!.tls!.caCert } : undefined;
  const root = `/bench-${randomBytes(4).toString('hex')}`;
  const context = new BenchContext(connectString, args.quick, createDefaultLogger(), tls);
  let failed = false;
  progress(
    `connect=${connectString} tls=${args.tls} root=${root} quick=${args.quick} scenarios=${selected.map((s) => s.name).join(',')} node=${process.version}`,
  );
  try {
    const admin = await context.newClient();
    await admin.create(root);
    for (const scenario of selected) {
      progress(`=== ${scenario.name}`);
      const emitted = new Set<string>();
      try {
        for (const line of await scenario.run(context, `${root}/${scenario.name}`)) {
          emitted.add(line.scenario);
          if (line.notes.startsWith('FAIL') || line.notes.startsWith('ERROR')) failed = true;
          process.stdout.write(`${formatResultLine(line)}\n`);
        }
      } catch (error) {
        failed = true;
        progress(`ERROR in ${scenario.name}: ${String(error)}`);
        for (const name of emitsOf(scenario).filter((n) => !emitted.has(n))) {
          process.stdout.write(`${formatResultLine(errorLine(name, error))}\n`);
        }
      } finally {
        await context.closeClients();
      }
    }
    const cleaner = await context.newClient();
    await cleaner.delete(root, { deleteChildren: true, quietly: true });
  } finally {
    await context.closeClients();
    await server?.close();
  }
  progress(failed ? 'done, WITH FAILURES (see FAIL/ERROR above)' : 'done, all checks passed');
  return failed ? 1 : 0;
}

async function main(): Promise<number> {
  let args: CliArgs;
  try {
    args = parseCliArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stderr.write(`${USAGE}\n`);
    return 0;
  }
  if (args.list) {
    for (const scenario of SCENARIOS) for (const name of emitsOf(scenario)) console.log(name);
    return 0;
  }
  try {
    return await run(args);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n${USAGE}\n`);
      return 2;
    }
    progress(`ERROR outside any scenario: ${String(error)}`);
    return 1;
  }
}

process.exitCode = await main();
