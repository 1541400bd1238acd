// One `npm pack` for every packaging test file of a run. Node's test runner starts each file as
// a child process of its own, so the files of one run share their parent: the first file to
// ask packs into a directory named after that parent (pid and start time, since pids are
// reused), and the others wait for its list of tarballs. Directories of runs whose runner has
// gone are deleted on the way.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { oncePerRun } from './once-per-run.js';
import { packPackages } from './pack-packages.js';
import { TempProject } from './temp-project.js';

const PREFIX = 'zkrecipes-packs-of-';
/** Packing takes 10 s on an idle machine, a minute on a loaded one. */
const PACK_WAIT_MS = 150_000;

/** `<pid>-<start time in clock ticks>` of a live process; undefined when it is gone. */
function processKey(pid: number): string | undefined {
  try {
    // The start time is field 22; the name before it (in parentheses) may hold spaces.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return `${pid}-${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
  } catch {
    return undefined;
  }
}

function removeStale(ours: string): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(PREFIX) || name === ours) continue;
    const key = name.slice(PREFIX.length);
    if (processKey(Number(key.split('-')[0])) !== key) {
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
    }
  }
}

/** Where a run's tarballs are, and whether other files of the run share them. */
export interface Packs {
  readonly packs: TempProject;
  readonly tarballs: Map<string, string>;
  readonly shared: boolean;
}

/**
 * This run's tarballs, packed by this file if no other file of the run has. A shared directory
 * stays for the other files (a later run deletes it). Without /proc (not Linux), each file
 * packs on its own into a directory of its own.
 */
export async function sharedPacks(): Promise<Packs> {
  const key = processKey(process.ppid);
  if (key === undefined) {
    const packs = TempProject.create('packs');
    return { packs, tarballs: await packPackages(packs), shared: false };
  }
  const name = `${PREFIX}${key}`;
  removeStale(name);
  const packs = TempProject.open(join(tmpdir(), name));
  const entries = await oncePerRun(packs.dir, 'the tarballs', PACK_WAIT_MS, async () => [
    ...(await packPackages(packs)),
  ]);
  return { packs, tarballs: new Map(entries), shared: true };
}
