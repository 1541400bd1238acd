// The TypeScript projects the packaging tests build around the packed packages: one program
// that imports every published package, and the module settings a user may compile it under,
// each with the files that make it an ES module or a CommonJS one (typescript-project.ts makes
// the project, typescript-settings.test.ts and typescript-releases.test.ts build it).

/** The TypeScript releases tested besides the repository's own (installed from the registry). */
export const TYPESCRIPT_VERSIONS = ['5.0', '5.4', '5.6', '5.9'] as const;

/**
 * The program: a value and a type from each published package (the framework's
 * `./recipe-support` too), nothing that connects. It prints what the runs compare with
 * {@link EXPECTED_OUTPUT}. No top-level `await`: it is compiled to CommonJS as well.
 */
export const PROGRAM = `import {
  createFramework,
  ExponentialBackoffRetry,
  isNoNode,
  NoNodeError,
  silentLogger,
  ZooKeeperError,
  type FrameworkClient,
  type RetryPolicy,
} from '@zkrecipes/framework';
import { RecipeState } from '@zkrecipes/framework/recipe-support';
import { InterProcessMutex, type InterProcessMutexOptions } from '@zkrecipes/locks';
import { LeaderLatch } from '@zkrecipes/leader';
import { DistributedBarrier } from '@zkrecipes/barriers';
import { SharedCount } from '@zkrecipes/atomic';
import { DistributedQueue } from '@zkrecipes/queues';
import { CuratorCache } from '@zkrecipes/caches';
import { GroupMember } from '@zkrecipes/group';
import { ServiceDiscovery } from '@zkrecipes/discovery';
import { ModeledFramework } from '@zkrecipes/models';
import { TestingServer } from '@zkrecipes/testing';
import { JuteWriter } from '@zkrecipes/wire';
import { runCli } from '@zkrecipes/cli';

const retryPolicy: RetryPolicy = new ExponentialBackoffRetry({ baseSleepMs: 100, maxRetries: 3 });
const client: FrameworkClient = createFramework({
  connectString: '127.0.0.1:2181',
  retryPolicy,
  logger: silentLogger,
});
const options: InterProcessMutexOptions = {};
const mutex = new InterProcessMutex(client, '/app/lock', options);
const error: unknown = new NoNodeError({ path: '/app/lock' });
const state: RecipeState = RecipeState.LATENT;
const values = {
  LeaderLatch,
  DistributedBarrier,
  SharedCount,
  DistributedQueue,
  CuratorCache,
  GroupMember,
  ServiceDiscovery,
  ModeledFramework,
  TestingServer,
  JuteWriter,
  runCli,
};

// Never called; it fails to compile if the declarations went missing and left \`any\` behind.
export function misuse(): void {
  // @ts-expect-error: a mutex needs a path
  new InterProcessMutex(client);
}

console.log(
  JSON.stringify({
    mutex: mutex instanceof InterProcessMutex,
    noNode: error instanceof ZooKeeperError && isNoNode(error),
    state,
    notFunctions: Object.entries(values)
      .filter(([, value]) => typeof value !== 'function')
      .map(([name]) => name),
  }),
);
`;

/** What every compiled program prints. */
export const EXPECTED_OUTPUT = { mutex: true, noNode: true, state: 'LATENT', notFunctions: [] };

/** One tsconfig.json of a user's, in a directory of its own. */
export interface Setting {
  /** The directory, named after the setting. */
  readonly name: string;
  readonly compilerOptions: Readonly<Record<string, unknown>>;
  /** The files of the directory (the program under several names, package.json files). */
  readonly files: Readonly<Record<string, string>>;
  /** What TypeScript compiles the program files to, each run by node. */
  readonly outputs: readonly string[];
  /** Deprecated in TypeScript 6, which then wants `ignoreDeprecations` too. */
  readonly deprecatedIn6?: boolean;
}

const COMMON_OPTIONS = {
  target: 'es2022',
  // No DOM, which a Node program does without: a sixth of each compilation's time.
  lib: ['es2022'],
  strict: true,
  // What `tsc --init` writes; typescript-settings.test.ts checks the declarations themselves
  // once, with the repository's compiler (typescript-project.ts).
  skipLibCheck: true,
  // TypeScript 6 includes no @types package unless named.
  types: ['node'],
};

const typeOf = (type: 'commonjs' | 'module') => JSON.stringify({ type }, null, 2);

/**
 * `node16` and `nodenext` decide per file: a .ts file under `"type": "commonjs"` and a .cts
 * file are CommonJS (require), a .mts file and a .ts file under `"type": "module"` ES modules.
 */
function nodeModules(module: 'node16' | 'nodenext'): Setting {
  return {
    name: module,
    compilerOptions: { ...COMMON_OPTIONS, module, moduleResolution: module },
    files: {
      'package.json': typeOf('commonjs'),
      'required.ts': PROGRAM,
      'imported.mts': PROGRAM,
      'esm/package.json': typeOf('module'),
      'esm/imported.ts': PROGRAM,
      'esm/required.cts': PROGRAM,
    },
    outputs: ['required.js', 'imported.mjs', 'esm/imported.js', 'esm/required.cjs'],
  };
}

export const SETTINGS: readonly Setting[] = [
  nodeModules('node16'),
  nodeModules('nodenext'),
  {
    // Before `exports`: `main`/`types`, and `typesVersions` for a subpath.
    name: 'node10',
    compilerOptions: { ...COMMON_OPTIONS, module: 'commonjs', moduleResolution: 'node' },
    files: { 'package.json': typeOf('commonjs'), 'required.ts': PROGRAM },
    outputs: ['required.js'],
    deprecatedIn6: true,
  },
  {
    name: 'bundler',
    compilerOptions: { ...COMMON_OPTIONS, module: 'esnext', moduleResolution: 'bundler' },
    files: { 'package.json': typeOf('module'), 'imported.ts': PROGRAM },
    outputs: ['imported.js'],
  },
];
