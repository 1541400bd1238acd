// A new project in the run's project with every published package installed from its tarball
// (shared-install.ts), one directory per setting of typescript-settings.ts, and a tsconfig per
// compiler in each: what typescript-releases.test.ts and typescript-settings.test.ts build.
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from './pack-packages.js';
import { projectIn, type Installed } from './shared-install.js';
import type { TempProject } from './temp-project.js';
import { SETTINGS, type Setting } from './typescript-settings.js';

/** The tsc of one TypeScript release. */
export interface Compiler {
  /** The release: `5.0` for the latest 5.0.x, or an exact version. */
  readonly version: string;
  /** The `typescript` package's directory. */
  readonly dir: string;
  /** The repository's own, which alone writes files: the programs run afterwards. */
  readonly own: boolean;
}

/** The release installed under the alias `typescript-<version>` in `project`. */
export function releaseIn(project: TempProject, version: string): Compiler {
  return { version, dir: join(project.dir, 'node_modules', `typescript-${version}`), own: false };
}

function versionAt(dir: string): string {
  const manifest = readFileSync(join(dir, 'package.json'), 'utf8');
  return (JSON.parse(manifest) as { version: string }).version;
}

/** The version of the compiler actually installed. */
export const installedVersion = (compiler: Compiler): string => versionAt(compiler.dir);

const OWN_DIR = join(REPO_ROOT, 'node_modules', 'typescript');
export const OWN_TYPESCRIPT: Compiler = { version: versionAt(OWN_DIR), dir: OWN_DIR, own: true };

/** A loaded 2-core machine takes a minute for one release's build of every setting. */
const BUILD_TIMEOUT_MS = 120_000;

/** In the nodenext directory: its tsconfig.json with the declarations checked. */
const STRICT_CONFIG = 'tsconfig.strict.json';

/** The tsconfig `compiler` builds a setting with, extending the user's tsconfig.json. */
const configOf = (compiler: Compiler): string => `tsconfig.${compiler.version}.json`;

function extending(compilerOptions: Readonly<Record<string, unknown>>): string {
  return JSON.stringify({ extends: './tsconfig.json', compilerOptions }, null, 2);
}

/** What `compiler` adds to the user's options of `setting`. */
function buildOptions(compiler: Compiler, setting: Setting): Record<string, unknown> {
  return {
    ...(compiler.own ? {} : { noEmit: true }),
    // TypeScript 6 errors on `moduleResolution: node` unless told to ignore it; a project
    // that keeps the setting has to say so too.
    ...(setting.deprecatedIn6 && Number(compiler.version.split('.')[0]) >= 6
      ? { ignoreDeprecations: '6.0' }
      : {}),
  };
}

/**
 * A new directory in `installed` (every package and @types/node there), with the settings'
 * directories, each with a tsconfig for each of `compilers`; `remove()` it afterwards.
 */
export function typeScriptProject(
  name: string,
  installed: Installed,
  compilers: readonly Compiler[],
): TempProject {
  const project = projectIn(installed, name);
  project.write('package.json', JSON.stringify({ private: true }));
  for (const setting of SETTINGS) {
    const files: Record<string, string> = {
      ...setting.files,
      'tsconfig.json': JSON.stringify({ compilerOptions: setting.compilerOptions }, null, 2),
    };
    for (const compiler of compilers) {
      files[configOf(compiler)] = extending(buildOptions(compiler, setting));
    }
    // Every .d.ts and .d.cts the program reaches (its ES module and CommonJS files between
    // them reach both), which the settings' skipLibCheck leaves unchecked: an import that
    // resolves to nothing there would quietly type a value `any`. TypeScript's own lib files
    // need no checking.
    if (setting.name === 'nodenext') {
      files[STRICT_CONFIG] = extending({
        noEmit: true,
        skipLibCheck: false,
        skipDefaultLibCheck: true,
      });
    }
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(join(project.dir, setting.name, dirname(file)), { recursive: true });
      project.write(join(setting.name, file), text);
    }
  }
  return project;
}

/**
 * Builds every setting of `project` with `compiler` (and, with `strict`, checks the
 * declarations too): an empty list, or what tsc printed. One `tsc -b` builds them all: it
 * parses the declarations the settings share once, a third of the time of one `tsc -p` each.
 */
export async function buildSettings(
  project: TempProject,
  compiler: Compiler,
  { strict = false } = {},
): Promise<string[]> {
  const configs = SETTINGS.map((setting) => join(setting.name, configOf(compiler)));
  if (strict) configs.push(join('nodenext', STRICT_CONFIG));
  const { code, output } = await project.run(
    'node',
    [join(compiler.dir, 'bin', 'tsc'), '-b', ...configs],
    BUILD_TIMEOUT_MS,
  );
  return code === 0 ? [] : [`TypeScript ${compiler.version}: tsc -b exited ${code}\n${output}`];
}
