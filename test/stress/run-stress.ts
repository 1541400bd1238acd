// The ordering stress rounds, as a script:
//   node test/dist/test/stress/run-stress.js [--rounds 25] [--hog] [--only queue,group,lock]
// One ZooKeeper for the run, a fresh path per round; prints one line per round and a total,
// and exits 1 on any stall, loss, duplicate, overlap or inconsistent view.
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { TestingServer, uniquePath } from '@zkrecipes/testing';
import { groupViewsRound } from './group-views-round.js';
import { lockHandoffRound } from './lock-handoff-round.js';
import { queueStallRound } from './queue-stall-round.js';
import { cpuHog, stressClients } from './stress-clients.js';

export type StressKind = 'queue' | 'group' | 'lock';

export interface StressOptions {
  readonly rounds: number;
  readonly kinds: readonly StressKind[];
  readonly hog: boolean;
  readonly log?: (line: string) => void;
}

/** Runs the rounds; resolves the number of failed rounds. */
export async function runStress(options: StressOptions): Promise<number> {
  const log = options.log ?? (() => undefined);
  const server = await TestingServer.start();
  const clients = await stressClients(server.connectString, 6);
  const hog = options.hog ? cpuHog(2) : undefined;
  let failed = 0;
  try {
    for (let round = 1; round <= options.rounds; round++) {
      for (const kind of options.kinds) {
        const result = await runRound(kind, clients);
        const bad = Object.entries(result).some(
          ([key, value]) =>
            key !== 'items' && key !== 'members' && key !== 'acquisitions' && value !== 0,
        );
        if (bad) failed += 1;
        log(`${kind} round ${round}: ${JSON.stringify(result)}${bad ? ' FAIL' : ''}`);
      }
    }
  } finally {
    hog?.stop();
    await Promise.all(clients.map((client) => client.close()));
    await server.close();
  }
  return failed;
}

function runRound(
  kind: StressKind,
  clients: Awaited<ReturnType<typeof stressClients>>,
): Promise<object> {
  switch (kind) {
    case 'queue':
      return queueStallRound(
        clients.slice(0, 3),
        clients.slice(3),
        uniquePath('stress-queue'),
        100,
        15_000,
      );
    case 'group':
      return groupViewsRound(clients, uniquePath('stress-group'), 41, 15_000);
    case 'lock':
      return lockHandoffRound(clients, uniquePath('stress-lock'), 20, 30_000);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '25' },
      hog: { type: 'boolean', default: false },
      only: { type: 'string', default: 'queue,group,lock' },
    },
  });
  const kinds = values.only.split(',') as StressKind[];
  const failed = await runStress({
    rounds: Number(values.rounds),
    kinds,
    hog: values.hog,
    log: (line) => console.log(line),
  });
  console.log(failed === 0 ? 'stress: 0 failed rounds' : `stress: ${failed} failed rounds`);
  process.exitCode = failed === 0 ? 0 : 1;
}
