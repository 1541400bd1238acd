// The recipe pages (docs/recipes/*.md) checked in a project made from the packed tarballs, as
// a reader would copy their code: every TypeScript block compiles as written under the strict
// NodeNext tsconfig.json of docs/getting-started.md, and each page's main example runs against
// a real ZooKeeper and ends by itself with exit code 0.
//
// The rule for the pages (an HTML comment on the line before a block's fence):
// - no comment: the block is a program of its own and compiles alone;
// - `<!-- runs -->`: the same, and the test runs it (at least one per page), with
//   ZKRECIPES_CONNECT set to its server; such a block reads that variable, as getting-started's
//   examples do;
// - `<!-- continues -->`: the block goes on from the page's block before it (the client,
//   the cache... it made) and compiles appended to it;
// - `<!-- fragment -->`: not a program (a signature list, lines to show where something goes);
//   not compiled. Use it sparingly: a reader copies examples, and only checked ones stay right.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { TestingServer } from '@zkrecipes/testing';
import { codeBlocks, type CodeBlock } from './markdown-blocks.js';
import { REPO_ROOT } from './pack-packages.js';
import type { TempProject } from './temp-project.js';

const MARKERS = new Set(['', 'runs', 'continues', 'fragment']);
const EXAMPLE_TIMEOUT_MS = 30_000;

/** One compiled file: the page's blocks it is made of, in order. */
interface Program {
  readonly page: string;
  readonly file: string;
  readonly blocks: readonly CodeBlock[];
  readonly runs: boolean;
}

/** The programs of one page: one per block, a continuing block appended to the one before. */
function programsOf(page: string): Program[] {
  const name = page.replace(/^.*\//, '').replace(/\.md$/, '');
  const blocks = codeBlocks(readFileSync(join(REPO_ROOT, page), 'utf8')).filter((block) =>
    /^(ts|js)$/.test(block.lang),
  );
  const programs: Program[] = [];
  for (const block of blocks) {
    assert.ok(MARKERS.has(block.marker), `${page}:${block.line}: unknown marker ${block.marker}`);
    if (block.marker === 'fragment') continue;
    const previous = programs.at(-1);
    if (block.marker === 'continues') {
      assert.ok(previous, `${page}:${block.line} continues no block`);
    }
    const chain = block.marker === 'continues' ? [...previous!.blocks, block] : [block];
    programs.push({
      page,
      file: `${name}-${block.line}`,
      blocks: chain,
      runs: block.marker === 'runs',
    });
  }
  return programs;
}

function source(program: Program): string {
  return program.blocks.map((block) => block.code).join('\n');
}

/** Where line `line` (1-based) of a program's file is on its page. */
function pageLine(program: Program, line: number): string {
  let start = 1;
  for (const block of program.blocks) {
    const length = block.code.split('\n').length;
    if (line < start + length) return `${program.page}:${block.line + line - start}`;
    start += length;
  }
  return `${program.page}:?`;
}

/**
 * The recipe pages' suite, inside a suite that has started `context().server` and set up
 * `context().project`: an ES module project with every package, typescript and @types/node.
 */
export function describeRecipePages(
  context: () => { server: TestingServer; project: TempProject },
): void {
  const pages = readdirSync(join(REPO_ROOT, 'docs', 'recipes'))
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => `docs/recipes/${file}`);
  const programs = pages.flatMap(programsOf);
  /** Compiler errors by page, as `page:line: message`. */
  const errors = new Map<string, string[]>(pages.map((page) => [page, []]));

  describe('the recipe pages, in a project made from the tarballs', () => {
    before(async () => {
      const { project, server } = context();
      const tsconfig = codeBlocks(
        readFileSync(join(REPO_ROOT, 'docs', 'getting-started.md'), 'utf8'),
      ).filter((block) => block.lang === 'json' && /compilerOptions/.test(block.code));
      assert.equal(tsconfig.length, 1, 'getting-started.md has one tsconfig.json');
      project.write('tsconfig.json', tsconfig[0]!.code);
      for (const program of programs) project.write(`${program.file}.ts`, source(program));
      // One compiler run for every block of every page; a block's errors still fail only its
      // page. Files with errors are still emitted.
      const { code, output } = await project.run('npx', ['tsc', '--pretty', 'false'], 120_000);
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
    });

    for (const page of pages) {
      const mine = programs.filter((program) => program.page === page);
      it(`${page}: every TypeScript block compiles as written`, () => {
        assert.ok(mine.length > 0, `${page} has a TypeScript block that compiles`);
        // A block's error shows again in every block that continues from it: once is enough.
        assert.deepEqual([...new Set(errors.get(page))], []);
      });
      it(`${page}: its main example runs against ZooKeeper and ends with exit code 0`, async () => {
        const runs = mine.filter((program) => program.runs);
        assert.ok(runs.length > 0, `${page} marks its main example <!-- runs -->`);
        for (const program of runs) {
          assert.match(source(program), /process\.env\.ZKRECIPES_CONNECT/, program.file);
          const { code, output } = await context().project.run(
            'node',
            [`${program.file}.js`],
            EXAMPLE_TIMEOUT_MS,
          );
          assert.equal(code, 0, `${pageLine(program, 1)} exited ${code}:\n${output}`);
        }
      });
    }
  });
}
