// docs/getting-started.md followed as a user would, in a new project outside this repository:
// the page's commands set it up (our packages from their packed packed().tarballs), its examples
// compile with its tsconfig.json and run against a real ZooKeeper, and its CLI commands run
// while a program holds the page's lock and leads its election.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { createFramework, silentLogger, type FrameworkClient } from '@zkrecipes/framework';
import { LeaderLatch } from '@zkrecipes/leader';
import { InterProcessMutex } from '@zkrecipes/locks';
import { sessionIdHex, timing, waitFor, type TestingServer } from '@zkrecipes/testing';
import {
  commands,
  commandsOf,
  connectVariable,
  EXAMPLE_TIMEOUT_MS,
  examples,
  PAGE,
  tsconfig,
} from './getting-started-page.js';
import { fromLocalSources, NPM_INSTALL_FLAGS } from './local-install.js';
import { packedSuite } from './packed-suite.js';
import { withOurDependencies } from './pack-packages.js';
import { killGroup, TempProject } from './temp-project.js';

describe('getting started, with the packed packages', () => {
  const packed = packedSuite();

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
          const args = fromLocalSources(command.args.slice(1), packed().tarballs);
          await project.must('npm', [...args, ...NPM_INSTALL_FLAGS]);
        }
      }
      project.setEnv(connectVariable(), packed().server.connectString);
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
        packed().tarballs.get(name)!,
      );
      // What npx would download from the registry, installed from the tarballs instead.
      await project.must('npm', ['install', ...NPM_INSTALL_FLAGS, ...withDependencies]);
      const lines = commandsOf('cli');
      assert.ok(lines.length >= 2, 'inspect and watch');
      await withHolderAndLeader(packed().server, async (client, leaderId) => {
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
