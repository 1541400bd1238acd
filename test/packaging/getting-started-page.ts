// docs/getting-started.md as its tests read it: its commands, its TypeScript examples (each with
// the file name it is saved under) and its tsconfig.json.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeBlocks, importsOf } from './markdown-blocks.js';
import { REPO_ROOT } from './pack-packages.js';
import { pageCommands, type PageCommand } from './page-commands.js';

export const PAGE = 'docs/getting-started.md';
const blocks = codeBlocks(readFileSync(join(REPO_ROOT, PAGE), 'utf8'));

export const commands = pageCommands(blocks);

/** The page's TypeScript examples, each with the file name it is saved under. */
export const examples = blocks
  .filter((block) => block.lang === 'ts')
  .map((block) => {
    const isTest = importsOf(block.code).includes('node:test');
    return { ...block, isTest, file: `example-${block.line}${isTest ? '.test' : ''}` };
  });

/** The page's tsconfig.json blocks (one, the tests check). */
export const tsconfig = blocks.filter(
  (block) => block.lang === 'json' && /compilerOptions/.test(block.code),
);

/** Each example takes well under a second here; one that cannot connect waits much longer. */
export const EXAMPLE_TIMEOUT_MS = 30_000;

/** The page's commands of one kind. */
export function commandsOf(kind: PageCommand['kind']): PageCommand[] {
  return commands.filter((command) => command.kind === kind);
}

/** The one environment variable the page exports for the connect string. */
export function connectVariable(): string {
  const exported = commands.flatMap((command) => (command.kind === 'env' ? [command.name] : []));
  assert.equal(exported.length, 1, `${PAGE} exports one variable: ${exported.join()}`);
  return exported[0]!;
}
