// Every packed package installed once per run, into one ES module project that the packaging
// files share: each file works in a directory of its own inside it, where node, tsc and npx
// find the packages in the project's node_modules above. One `npm install` took ten seconds of
// CPU, and four files made the same one.
import { join } from 'node:path';
import { fromLocalSources, NPM_INSTALL_FLAGS } from './local-install.js';
import { oncePerRun } from './once-per-run.js';
import { TempProject } from './temp-project.js';

/** A loaded machine takes a minute for the install; packing comes before it. */
const INSTALL_WAIT_MS = 150_000;

/**
 * Besides our packages: the compiler and node's types a TypeScript user installs (the
 * repository's own copies), and zod, which the models page's examples use as its readers would.
 */
const TOOLS = ['typescript', '@types/node', 'zod'];

/** The run's tarballs, as shared-packs.ts or packed-suite.ts give them. */
export interface PacksOfRun {
  readonly packs: TempProject;
  readonly tarballs: ReadonlyMap<string, string>;
  readonly shared: boolean;
}

/** The project every package is installed in, and whether other files share it. */
export interface Installed {
  readonly root: TempProject;
  readonly shared: boolean;
}

/** What `npm init -y`, `npm pkg set type=module` and one `npm install` make of `project`. */
async function install(project: TempProject, tarballs: ReadonlyMap<string, string>) {
  await project.must('npm', ['init', '-y']);
  await project.must('npm', ['pkg', 'set', 'type=module']);
  const tools = fromLocalSources(TOOLS, tarballs);
  const all = [...tarballs.values(), ...tools];
  await project.must('npm', ['install', ...NPM_INSTALL_FLAGS, ...all], 120_000);
}

/**
 * An ES module project with every package of the run installed from its tarball, with
 * typescript, @types/node and zod: made by this file if no other file of the run has, in the
 * run's directory of tarballs. When the tarballs are not shared, the project is this file's:
 * remove it afterwards (`shared` false).
 */
export async function sharedInstall({ packs, tarballs, shared }: PacksOfRun): Promise<Installed> {
  if (!shared) {
    const root = TempProject.create('installed');
    await install(root, tarballs);
    return { root, shared: false };
  }
  const root = TempProject.open(join(packs.dir, 'installed'));
  await oncePerRun(root.dir, 'the installed packages', INSTALL_WAIT_MS, async () => {
    await install(root, tarballs);
    return true;
  });
  return { root, shared: true };
}

/** A new directory of this file's inside the installed project. */
export function projectIn(installed: Installed, name: string): TempProject {
  return TempProject.createIn(installed.root.dir, name);
}
