// The packages as a user gets them: packed by npm (their prepack build included), installed
// from the tarballs into new projects outside this repository, and docs/getting-started.md
// followed there, each example run against a real ZooKeeper. What the workspaces hide here
// (siblings always linked, a "type": "module" package around every file, sources next to the
// maps) is absent there. Dependencies from the registry come from npm's cache when it has them
// (--prefer-offline), so after `npm ci` this usually needs no network. The recipe pages have a
// file of their own, recipe-pages.test.ts.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createFramework, silentLogger, type FrameworkClient } from '@zkrecipes/framework';
import { LeaderLatch } from '@zkrecipes/leader';
import { InterProcessMutex } from '@zkrecipes/locks';
import { sessionIdHex, TestingServer, timing, waitFor } from '@zkrecipes/testing';
import { codeBlocks, importsOf } from './markdown-blocks.js';
import { fromLocalSources, NPM_INSTALL_FLAGS } from './local-install.js';
import { packPackages, REPO_ROOT, withOurDependencies, type Manifest } from './pack-packages.js';
import { packageProblems } from './package-problems.js';
import { pageCommands } from './page-commands.js';
import { killGroup, TempProject } from './temp-project.js';

const PAGE = 'docs/getting-started.md';
const blocks = codeBlocks(readFileSync(join(REPO_ROOT, PAGE), 'utf8'));
const commands = pageCommands(blocks);
/** The page's TypeScript examples, each with the file name it is saved under. */
const examples = blocks
  .filter((block) => block.lang === 'ts')
  .map((block) => {
    const isTest = importsOf(block.code).includes('node:test');
    return { ...block, isTest, file: `example-${block.line}${isTest ? '.test' : ''}` };
  });
const tsconfig = blocks.filter(
  (block) => block.lang === 'json' && /compilerOptions/.test(block.code),
);

/** Each example takes well under a second here; one that cannot connect waits much longer. */
const EXAMPLE_TIMEOUT_MS = 30_000;

describe('the published packages', () => {
  let server: TestingServer;
  let packs: TempProject;
  let tarballs: Map<string, string>;

  before(async () => {
    server = await TestingServer.start();
    packs = TempProject.create('packs');
    tarballs = await packPackages(packs);
  });
  after(async () => {
    await server.close();
    packs.remove();
  });

  it('ship dist, LICENSE, the sources their maps name, ^ ranges and registry-safe links', async () => {
    const license = readFileSync(join(REPO_ROOT, 'LICENSE'), 'utf8');
    const problems: Record<string, string[]> = {};
    for (const [name, tarball] of tarballs) {
      const into = join(packs.dir, 'unpacked', name);
      mkdirSync(into, { recursive: true });
      await packs.must('tar', ['-xzf', tarball, '-C', into]);
      problems[name] = packageProblems(join(into, 'package'), license);
    }
    const expected = Object.fromEntries([...tarballs.keys()].map((name) => [name, []]));
    assert.deepEqual(problems, expected);
  });

  describe('in a new `npm init -y` project (CommonJS), only framework and locks', () => {
    let project: TempProject;
    before(() => {
      project = TempProject.create('commonjs');
    });
    after(() => project.remove());

    it('install from their tarballs with their registry dependencies', async () => {
      await project.must('npm', ['init', '-y']);
      const manifest = JSON.parse(project.read('package.json')) as Manifest;
      assert.notEqual(manifest.type, 'module', 'the point here is a CommonJS project');
      const ours = withOurDependencies(['@zkrecipes/framework', '@zkrecipes/locks']).map((name) =>
        tarballs.get(name)!,
      );
      await project.must('npm', ['install', ...NPM_INSTALL_FLAGS, ...ours]);
      // Exits non-zero on a missing or invalid dependency, peers included.
      await project.must('npm', ['ls', '--all']);
    });

    it("run import('@zkrecipes/locks')", async () => {
      const { stdout } = await project.must('node', [
        '-e',
        "import('@zkrecipes/locks').then((locks) => console.log(Object.keys(locks).join()))",
      ]);
      assert.ok(stdout.trim().split(',').includes('InterProcessMutex'), stdout);
    });

    it("compile and run the page's framework and locks examples as .mts files", async () => {
      assert.equal(tsconfig.length, 1, `${PAGE} has one tsconfig.json`);
      const mine = examples.filter((example) =>
        importsOf(example.code).every((name) =>
          /^(node:|@zkrecipes\/(framework|locks)$)/.test(name),
        ),
      );
      assert.ok(mine.length >= 2, 'the connect and lock examples at least');
      const tools = fromLocalSources(['typescript', '@types/node'], tarballs);
      await project.must('npm', ['install', '--save-dev', ...NPM_INSTALL_FLAGS, ...tools]);
      project.write('tsconfig.json', tsconfig[0]!.code);
      for (const example of mine) project.write(`${example.file}.mts`, example.code);
      await project.must('npx', ['tsc']);
      project.setEnv(connectVariable(), server.connectString);
      for (const example of mine) {
        await project.must('node', [`${example.file}.mjs`], EXAMPLE_TIMEOUT_MS);
      }
    });
  });

  describe(`${PAGE}, followed in a new project`, () => {
    let project: TempProject;
    before(() => {
      project = TempProject.create('getting-started');
    });
    after(() => project.remove());

    it('has a rule for every command on the page', () => {
      const unknown = commands.filter((command) => command.kind === 'unknown');
      assert.deepEqual(unknown, []);
    });

    it("sets the project up with the page's commands", async () => {
      for (const command of commands) {
        if (command.kind === 'project') {
          await project.must(command.args[0]!, command.args.slice(1));
        } else if (command.kind === 'install') {
          const args = fromLocalSources(command.args.slice(1), tarballs);
          await project.must('npm', [...args, ...NPM_INSTALL_FLAGS]);
        }
      }
      project.setEnv(connectVariable(), server.connectString);
    });

    it("compiles every example with the page's tsconfig.json", async () => {
      assert.equal(tsconfig.length, 1, `${PAGE} has one tsconfig.json`);
      project.write('tsconfig.json', tsconfig[0]!.code);
      for (const example of examples) project.write(`${example.file}.ts`, example.code);
      const compile = [...new Set(commandsOf('compile').map((command) => command.text))];
      assert.ok(compile.length > 0, `${PAGE} says how to compile`);
      for (const text of compile) await project.must('sh', ['-c', text]);
    });

    for (const example of examples) {
      it(`runs the example at line ${example.line} as the page says`, async () => {
        const how = commandsOf(example.isTest ? 'run-tests' : 'run-examples');
        assert.ok(how.length > 0, `${PAGE} says how to run ${example.isTest ? 'a test' : 'it'}`);
        const args = example.isTest ? ['--test', `${example.file}.js`] : [`${example.file}.js`];
        await project.must('node', args, EXAMPLE_TIMEOUT_MS);
      });
    }

    it("runs the page's CLI commands while a program holds the lock and leads", async () => {
      const withDependencies = withOurDependencies(['@zkrecipes/cli']).map((name) =>
        tarballs.get(name)!,
      );
      // What npx would download from the registry, installed from the tarballs instead.
      await project.must('npm', ['install', ...NPM_INSTALL_FLAGS, ...withDependencies]);
      const lines = commandsOf('cli');
      assert.ok(lines.length >= 2, 'inspect and watch');
      await withHolderAndLeader(server, async (client, leaderId) => {
        for (const { text } of lines) {
          if (/ watch /.test(text)) await firstWatchView(project, text, leaderId);
          else {
            const { output } = await project.must('sh', ['-c', text]);
            assert.ok(output.includes(sessionIdHex(client.sessionId!)), output);
          }
        }
      });
    });
  });
});

function commandsOf(kind: (typeof commands)[number]['kind']): (typeof commands)[number][] {
  return commands.filter((command) => command.kind === kind);
}

/** The one environment variable the page exports for the connect string. */
function connectVariable(): string {
  const exported = commands.flatMap((command) => (command.kind === 'env' ? [command.name] : []));
  assert.equal(exported.length, 1, `${PAGE} exports one variable: ${exported.join()}`);
  return exported[0]!;
}

/** Runs `body` while a client holds the page's lock and a latch leads its election. */
async function withHolderAndLeader(
  server: TestingServer,
  body: (client: FrameworkClient, leaderId: string) => Promise<void>,
): Promise<void> {
  const client = createFramework({ connectString: server.connectString, logger: silentLogger });
  await client.start();
  const mutex = new InterProcessMutex(client, '/getting-started/locks/invoices');
  const latch = new LeaderLatch(client, '/getting-started/scheduler', { id: 'test-leader' });
  try {
    await mutex.acquire();
    await latch.start();
    assert.equal(await latch.await({ timeoutMs: timing.ms(10_000) }), true);
    await body(client, latch.id);
  } finally {
    await latch.close();
    await client.close();
  }
}

/** Starts a `watch --json` line, checks its first view names `leaderId`, and ends it. */
async function firstWatchView(project: TempProject, text: string, leaderId: string) {
  const child = project.spawn('sh', ['-c', text]);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit');
  try {
    await waitFor(() => stdout.includes('\n') || child.exitCode !== null, {
      message: `a first view from \`${text}\``,
    });
    const view = JSON.parse(stdout.split('\n')[0]!) as {
      kind?: string;
      leader?: { data?: string };
    };
    assert.deepEqual(
      { kind: view.kind, leader: view.leader?.data },
      {
        kind: 'leader-latch',
        leader: leaderId,
      },
      stdout + stderr,
    );
  } finally {
    killGroup(child);
    await exited;
  }
}
