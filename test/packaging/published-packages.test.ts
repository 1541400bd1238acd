// The packages as a user gets them: packed by npm (their prepack build included), checked, and
// installed from the tarballs into a new CommonJS project outside this repository, where the
// getting-started examples that need only the framework and locks run against a real
// ZooKeeper. What the workspaces hide here (siblings always linked, a "type": "module" package
// around every file, sources next to the maps) is absent there. Dependencies from the registry
// come from npm's cache when it has them (--prefer-offline), so after `npm ci` this usually
// needs no network. getting-started.test.ts follows the whole page, recipe-pages.test.ts the
// recipe pages, readme-pages.test.ts the READMEs: node's test runner gives each file 180 s, and
// one file for all of it timed out on a loaded machine. The files share one packing
// (shared-packs.ts).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  connectVariable,
  EXAMPLE_TIMEOUT_MS,
  examples,
  PAGE,
  tsconfig,
} from './getting-started-page.js';
import { fromLocalSources, NPM_INSTALL_FLAGS } from './local-install.js';
import { importsOf } from './markdown-blocks.js';
import { packedSuite } from './packed-suite.js';
import { REPO_ROOT, withOurDependencies, type Manifest } from './pack-packages.js';
import { packageProblems } from './package-problems.js';
import { TempProject } from './temp-project.js';

describe('the published packages', () => {
  const packed = packedSuite();

  it('ship dist, LICENSE, the sources their maps name, ^ ranges and registry-safe links', async () => {
    const { packs, tarballs } = packed();
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
        packed().tarballs.get(name)!,
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
      const tools = fromLocalSources(['typescript', '@types/node'], packed().tarballs);
      await project.must('npm', ['install', '--save-dev', ...NPM_INSTALL_FLAGS, ...tools]);
      project.write('tsconfig.json', tsconfig[0]!.code);
      for (const example of mine) project.write(`${example.file}.mts`, example.code);
      await project.must('npx', ['tsc']);
      project.setEnv(connectVariable(), packed().server.connectString);
      for (const example of mine) {
        await project.must('node', [`${example.file}.mjs`], EXAMPLE_TIMEOUT_MS);
      }
    });
  });
});
