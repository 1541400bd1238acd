// The programs a docs page is made of, as its markers say (the rule is in recipe-pages.ts),
// and the lanes they can run in: programs that may touch the same ZooKeeper paths (of any
// page) run one after the other, the others side by side.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeBlocks, importsOf, type CodeBlock } from './markdown-blocks.js';
import { REPO_ROOT } from './pack-packages.js';

/** One compiled and run file: the page's blocks it is made of, in order. */
export interface Program {
  readonly page: string;
  readonly file: string;
  readonly blocks: readonly CodeBlock[];
  /** A test file (it imports node:test): run with `node --test`; its name ends in `.test`. */
  readonly isTest: boolean;
}

const MARKERS = new Set(['', 'continues', 'fragment']);

/** What a page's programs are named after: `locks` (docs/recipes/locks.md), `locks-README`. */
function nameOf(page: string): string {
  return page
    .replace(/\.md$/, '')
    .replace(/^(docs\/recipes|packages)\//, '')
    .replaceAll('/', '-');
}

/** The programs of one page: one per block, a continuing block appended to the one before. */
export function programsOf(page: string): Program[] {
  const name = nameOf(page);
  const blocks = codeBlocks(readFileSync(join(REPO_ROOT, page), 'utf8')).filter((block) =>
    /^(ts|js)$/.test(block.lang),
  );
  const programs: Program[] = [];
  for (const block of blocks) {
    const where = `${page}:${block.line}`;
    assert.ok(MARKERS.has(block.marker), `${where}: unknown marker '${block.marker}'`);
    if (block.marker === 'fragment') {
      assert.ok(block.note !== '', `${where}: say why it is no program: <!-- fragment: why -->`);
      continue;
    }
    const previous = programs.at(-1);
    if (block.marker === 'continues') assert.ok(previous, `${where} continues no block`);
    const chain = block.marker === 'continues' ? [...previous!.blocks, block] : [block];
    const isTest = chain.some((link) => importsOf(link.code).includes('node:test'));
    const file = `${name}-${block.line}${isTest ? '.test' : ''}`;
    programs.push({ page, file, blocks: chain, isTest });
  }
  return programs;
}

/** A program's source: its blocks, one after the other. */
export function source(program: Program): string {
  return program.blocks.map((block) => block.code).join('\n');
}

/** Where line `line` (1-based) of a program's file is on its page. */
export function pageLine(program: Program, line: number): string {
  let start = 1;
  for (const block of program.blocks) {
    const length = block.code.split('\n').length;
    if (line < start + length) return `${program.page}:${block.line + line - start}`;
    start += length;
  }
  return `${program.page}:?`;
}

/** The absolute ZooKeeper paths a program names in string literals. */
function pathsOf(program: Program): string[] {
  return [...source(program).matchAll(/'(\/[^'\s]*)'/g)].map((match) => match[1]!);
}

/** Whether one of two paths is the other or lies under it. */
function overlap(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return long === short || long.startsWith(short.endsWith('/') ? short : `${short}/`);
}

/**
 * Programs (of one page or several) in lanes: a program joins the lane of every earlier
 * program whose paths overlap its own, merging them (a continuing block repeats its first
 * block's paths, so a chain stays in one lane); each lane keeps the programs' order. Lanes
 * have no path in common, so they can run at the same time.
 */
export function lanesOf(programs: readonly Program[]): Program[][] {
  let lanes: { programs: Program[]; paths: string[] }[] = [];
  for (const program of programs) {
    const paths = pathsOf(program);
    const touched = lanes.filter((lane) =>
      lane.paths.some((p) => paths.some((q) => overlap(p, q))),
    );
    const merged = {
      programs: [...touched.flatMap((lane) => lane.programs), program],
      paths: [...touched.flatMap((lane) => lane.paths), ...paths],
    };
    // Merged lanes keep page order, so a block still runs after the ones it continues.
    merged.programs.sort((x, y) => programs.indexOf(x) - programs.indexOf(y));
    lanes = [...lanes.filter((lane) => !touched.includes(lane)), merged];
  }
  return lanes.map((lane) => lane.programs);
}
