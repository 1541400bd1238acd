// The recipe pages (docs/recipes/*.md) and the package READMEs (packages/*/README.md, and the
// root README.md once it has TypeScript) checked in a project made from the packed tarballs, as
// a reader would copy their code: every TypeScript block compiles as written under the strict
// NodeNext tsconfig.json of docs/getting-started.md, and runs against a real ZooKeeper, ending
// by itself with exit code 0 and nothing on stderr (no unhandled rejection, no warning). The
// test adds nothing to the code; it only sets ZKRECIPES_CONNECT, which every example that
// connects reads (`process.env.ZKRECIPES_CONNECT ?? '127.0.0.1:2181'`).
//
// The rule for the pages (an HTML comment on the line before a block's fence):
// - no comment: the block is a program of its own;
// - `<!-- continues -->`: the block goes on from the page's block before it (the client, the
//   cache... it made); it compiles and runs as that block's program with itself appended, so
//   every such chain must be a whole program that ends and cleans up (`await using` in the
//   first block closes what it made when the program ends, after every continuing block);
// - `<!-- fragment: why -->`: not a program, so neither compiled nor run; the comment says why
//   (the one left, in leader.md, shows a one-line check in the two places where the page's
//   programs run it). Use it sparingly: a reader copies examples, and only checked ones stay
//   right.
//
// A program that imports node:test is a test file, as a user of @zkrecipes/testing writes one:
// it runs with `node --test` and starts its own server, so it needs no ZKRECIPES_CONNECT. A
// program that connects to nothing (@zkrecipes/wire's encodes a request) just runs.
//
// Programs of every page run side by side, two at a time, except those that name overlapping
// paths (see page-programs.ts): they run one after the other. Give each example its own paths.
//
// recipe-pages.test.ts checks the recipe pages and readme-pages.test.ts the READMEs, each with a
// server and a directory of its own (node's test runner gives each file 180 s), in the project
// where the run installed every package once (shared-install.ts).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TestingServer } from '@zkrecipes/testing';
import { codeBlocks } from './markdown-blocks.js';
import { REPO_ROOT } from './pack-packages.js';
import { packedSuite } from './packed-suite.js';
import { projectIn, sharedInstall, type Installed } from './shared-install.js';
import { lanesOf, pageLine, programsOf, source, type Program } from './page-programs.js';
import type { TempProject } from './temp-project.js';

const EXAMPLE_TIMEOUT_MS = 30_000;
/** Programs running at once: the machine has two cores, and ZooKeeper runs on them too. */
const AT_ONCE = 2;

/** `output` with each place in the program's file replaced by its page line. */
function onPage(program: Program, output: string): string {
  const at = new RegExp(`[^\\s(]*\\b${program.file}\\.ts:(\\d+)(:\\d+)?`, 'g');
  return output.replace(at, (_, line: string) => pageLine(program, Number(line)));
}

/** A function that runs tasks, `size` at a time, in the order they were handed to it. */
function limited(size: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running === size) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await task();
    } finally {
      // The next task takes this one's place; with none waiting, the place is free.
      const next = waiting.shift();
      if (next === undefined) running--;
      else next();
    }
  };
}

/**
 * Runs the programs of every page in lanes (see {@link lanesOf}), `AT_ONCE` lanes at a time,
 * the longest first (a chain of many blocks bounds the whole run); resolves each program's
 * failure, or undefined. After a failure, the lane skips the rest of that page's programs:
 * they would mostly repeat it.
 */
function runAll(
  programs: readonly Program[],
  run: (program: Program) => Promise<string | undefined>,
): Map<Program, Promise<string | undefined>> {
  const limit = limited(AT_ONCE);
  const settle = new Map<Program, (failure: string | undefined) => void>();
  const results = new Map<Program, Promise<string | undefined>>();
  for (const program of programs) {
    results.set(program, new Promise((resolve) => settle.set(program, resolve)));
  }
  const runLane = async (lane: Program[]): Promise<void> => {
    const failed = new Set<string>();
    for (const program of lane) {
      const failure = failed.has(program.page)
        ? undefined
        : await run(program).catch((error: unknown) => String(error));
      if (failure !== undefined) failed.add(program.page);
      settle.get(program)!(failure);
    }
  };
  const cost = (lane: Program[]) => lane.reduce((sum, program) => sum + program.blocks.length, 0);
  const longestFirst = lanesOf(programs).sort((a, b) => cost(b) - cost(a));
  for (const lane of longestFirst) void limit(() => runLane(lane));
  return results;
}

/** Runs one program; resolves undefined, or what went wrong, with page lines. */
async function runProgram(project: TempProject, program: Program): Promise<string | undefined> {
  const last = program.blocks.at(-1)!;
  const before = program.blocks.slice(0, -1).map((block) => block.line);
  const what =
    `the block at ${program.page}:${last.line}` +
    (before.length > 0 ? `, run after the blocks it continues (lines ${before.join(', ')})` : '');
  // A test file brings its own server; a program that names no connect string connects to none.
  const text = source(program);
  const connects = !program.isTest && /connectString/.test(text);
  if (connects && !/process\.env\.ZKRECIPES_CONNECT/.test(text)) {
    return `${what} does not read ZKRECIPES_CONNECT`;
  }
  const test = program.isTest ? ['--test'] : [];
  const { code, output, stderr } = await project.run(
    'node',
    ['--enable-source-maps', ...test, `${program.file}.js`],
    EXAMPLE_TIMEOUT_MS,
  );
  if (code === 0 && stderr === '') return undefined;
  return `${what} ${code === 0 ? 'wrote to stderr' : `exited ${code}`}:\n${onPage(program, output)}`;
}

/** Whether a page has a TypeScript (or JavaScript) block. */
function hasCode(page: string): boolean {
  return codeBlocks(readFileSync(join(REPO_ROOT, page), 'utf8')).some((block) =>
    /^(ts|js)$/.test(block.lang),
  );
}

/** The recipe pages, docs/recipes/*.md. */
export function recipePages(): string[] {
  return readdirSync(join(REPO_ROOT, 'docs', 'recipes'))
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => `docs/recipes/${file}`);
}

/**
 * The READMEs with code: every package's, and the root one (a README without a TypeScript
 * block, such as the CLI's, has nothing to run).
 */
export function readmePages(): string[] {
  const packages = readdirSync(join(REPO_ROOT, 'packages'))
    .sort()
    .map((dir) => `packages/${dir}/README.md`)
    .filter((page) => existsSync(join(REPO_ROOT, page)));
  return [...packages, 'README.md'].filter(hasCode);
}

/**
 * A suite that checks `pages` as the header says: it starts a server, gets the tarballs and the
 * ES module project with every package, typescript and @types/node (installed once for the run,
 * shared-install.ts), then compiles and runs every program of the pages in a directory of its
 * own there.
 */
export function describePages(title: string, pages: readonly string[]): void {
  describe(`${title}, in a new ES module project`, () => {
    const packed = packedSuite();
    let installed: Installed | undefined;
    let project: TempProject;

    before(async () => {
      installed = await sharedInstall(packed());
      project = projectIn(installed, 'pages');
    });
    after(() => {
      project?.remove();
      if (installed?.shared === false) installed.root.remove();
    });

    describeChecks(pages, () => ({ server: packed().server, project }));
  });
}

/**
 * The checks of `pages`, inside a suite that has started `context().server` and set up
 * `context().project`: an ES module project with every package, typescript and @types/node.
 */
function describeChecks(
  pages: readonly string[],
  context: () => { server: TestingServer; project: TempProject },
): void {
  const programs = pages.flatMap(programsOf);
  /** Compiler errors by page, as `page:line: message`. */
  const errors = new Map<string, string[]>(pages.map((page) => [page, []]));
  /** Each program's run: its failure, or undefined. */
  let runs = new Map<Program, Promise<string | undefined>>();

  describe('every TypeScript block, compiled and run', () => {
    before(async () => {
      const { project, server } = context();
      const tsconfig = codeBlocks(
        readFileSync(join(REPO_ROOT, 'docs', 'getting-started.md'), 'utf8'),
      ).filter((block) => block.lang === 'json' && /compilerOptions/.test(block.code));
      assert.equal(tsconfig.length, 1, 'getting-started.md has one tsconfig.json');
      project.write('tsconfig.json', tsconfig[0]!.code);
      for (const program of programs) project.write(`${program.file}.ts`, source(program));
      // One compiler run for every block of every page; a block's errors still fail only its
      // page. Files with errors are still emitted. The source maps only let a failure's stack
      // name page lines: they change nothing in what runs.
      const { code, output } = await project.run(
        'npx',
        ['tsc', '--pretty', 'false', '--sourceMap'],
        120_000,
      );
      for (const line of output.split('\n')) {
        const error = /^(\S+)\.ts\((\d+),(\d+)\): (.*)$/.exec(line);
        if (error === null) continue;
        const program = programs.find((candidate) => candidate.file === error[1]);
        const where = program ? pageLine(program, Number(error[2])) : `${error[1]}.ts`;
        errors.get(program?.page ?? pages[0]!)!.push(`${where}: ${error[4]}`);
      }
      const mapped = [...errors.values()].flat().length;
      if (code !== 0 && mapped === 0) errors.get(pages[0]!)!.push(`tsc exited ${code}:\n${output}`);
      project.setEnv('ZKRECIPES_CONNECT', server.connectString);
      // Every page's programs start now, in the background; each page's test waits for its own
      // (so the first page's test shows most of the run's time).
      runs = runAll(programs, (program) => runProgram(project, program));
    });

    for (const page of pages) {
      const mine = programs.filter((program) => program.page === page);
      it(`${page}: every TypeScript block compiles as written`, () => {
        assert.ok(mine.length > 0, `${page} has a TypeScript block that compiles`);
        // A block's error shows again in every block that continues from it: once is enough.
        assert.deepEqual([...new Set(errors.get(page))], []);
      });
      it(`${page}: every TypeScript block runs against ZooKeeper and ends by itself`, async () => {
        const failures = await Promise.all(
          mine.map(
            (program) => runs.get(program) ?? Promise.resolve(`${program.file} did not run`),
          ),
        );
        assert.deepEqual(
          failures.filter((failure) => failure !== undefined),
          [],
        );
      });
    }
  });
}
