// docs/getting-started.md's programs bundled into one file each by the page's own esbuild
// command, then run with node where there is no node_modules, against a real ZooKeeper: the
// packages and their dependencies (node-zookeeper-client included) must load from inside the
// bundle, with nothing resolved from disk at run time.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TestingServer, timing } from '@zkrecipes/testing';
import { connectVariable, examples, PAGE } from './getting-started-page.js';
import { REPO_ROOT } from './pack-packages.js';

/** The page's bundling command, an inline code span, as written. */
const COMMAND = /`(npx esbuild example\.ts [^`]+)`/.exec(
  readFileSync(join(REPO_ROOT, PAGE), 'utf8'),
)?.[1];
/** The test workspace's esbuild stands in for `npx esbuild` (npx would download one). */
const ESBUILD = join(REPO_ROOT, 'node_modules', '.bin', 'esbuild');

/** What two of the programs print: proof that a bundle did talk to ZooKeeper. */
const PRINTS: readonly (readonly [fragment: string, output: RegExp])[] = [
  ["'/getting-started/hello'", /^world version \d+$/m],
  ['fencingToken', /^holding the lock with token \d+n$/m],
];

interface Run {
  readonly code: number | string | undefined;
  readonly stdout: string;
  readonly stderr: string;
}

function run(file: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<Run>((resolve) => {
    execFile(file, args, { cwd, env, timeout: timing.ms(20_000) }, (error, stdout, stderr) => {
      resolve({ code: error ? (error.code ?? error.signal ?? undefined) : 0, stdout, stderr });
    });
  });
}

/** The directories from `dir` up to the root that hold a node_modules. */
function nodeModulesAbove(dir: string): string[] {
  const found: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'node_modules'))) found.push(at);
    if (dirname(at) === at) return found;
  }
}

/**
 * Bundles `program` with the page's command in a directory of its own (the page names the
 * source example.ts) and resolves the bundle's path under `root`. The packages are found
 * through NODE_PATH, which esbuild reads at build time only.
 */
async function bundle(program: (typeof examples)[number], root: string): Promise<string> {
  assert.ok(COMMAND, `${PAGE} shows the esbuild command in an inline code span`);
  const build = join(root, `build-${program.line}`);
  mkdirSync(build);
  writeFileSync(join(build, 'example.ts'), program.code);
  const command = COMMAND.replace(/^npx esbuild /, `${ESBUILD} `);
  const built = await run('sh', ['-c', command], build, {
    ...process.env,
    NODE_PATH: join(REPO_ROOT, 'node_modules'),
  });
  assert.equal(built.code, 0, `${command}\n${built.stderr}`);
  const bundled = join(root, `${program.file}.mjs`);
  copyFileSync(join(build, 'example.bundle.mjs'), bundled);
  rmSync(build, { recursive: true });
  return bundled;
}

describe(`${PAGE}'s programs bundled with esbuild`, () => {
  const programs = examples.filter((example) => !example.isTest);
  let server: TestingServer;
  let root: string;
  /** Every program's bundle, built side by side while the server starts. */
  let bundles = new Map<(typeof programs)[number], Promise<string>>();
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'zkrecipes-bundle-'));
    assert.deepEqual(nodeModulesAbove(root), [], 'the bundles must run with no node_modules');
    bundles = new Map(programs.map((program) => [program, bundle(program, root)]));
    // Each test awaits its own bundle; a failed build is reported there, not as unhandled.
    for (const built of bundles.values()) built.catch(() => undefined);
    server = await TestingServer.start();
  });
  after(async () => {
    await Promise.allSettled(bundles.values());
    rmSync(root, { recursive: true, force: true });
    await server?.close();
  });

  it('the page gives an esbuild command, and the programs this test checks the output of', () => {
    assert.ok(COMMAND, `${PAGE} shows the esbuild command in an inline code span`);
    for (const [fragment] of PRINTS) {
      assert.ok(
        programs.some((program) => program.code.includes(fragment)),
        `a program with ${fragment}`,
      );
    }
  });

  for (const program of programs) {
    it(`bundles the program at line ${program.line} and runs it where there is no node_modules`, async () => {
      const bundled = await bundles.get(program)!;
      assert.match(readFileSync(bundled, 'utf8'), /node_modules\/node-zookeeper-client\/index\.js/);
      const env: NodeJS.ProcessEnv = { ...process.env, [connectVariable()]: server.connectString };
      delete env.NODE_PATH;
      const ran = await run(process.execPath, [bundled], root, env);
      const output = `${ran.stdout}${ran.stderr}`;
      assert.deepEqual({ code: ran.code, stderr: ran.stderr }, { code: 0, stderr: '' }, output);
      for (const [fragment, printed] of PRINTS) {
        if (program.code.includes(fragment)) assert.match(ran.stdout, printed);
      }
    });
  }
});
