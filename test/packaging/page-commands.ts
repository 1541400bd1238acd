// The shell commands of a docs page, each sorted into what a test does with it. A command no
// rule knows fails the test: a new kind of instruction on the page needs a rule here, so no
// instruction goes untested by accident.
import type { CodeBlock } from './markdown-blocks.js';

/** One command of a ```sh block, and what the test does with it. */
export type PageCommand = { readonly text: string; readonly line: number } & (
  | /** Run as written in the project while setting it up (`npm init -y`, `npm pkg set ...`). */
    { readonly kind: 'project'; readonly args: readonly string[] }
    /** `npx tsc`: run as written once every example is saved. */
  | { readonly kind: 'compile' }
  /** `npm install ...`: our packages come from the packed tarballs, the rest as resolved. */
  | { readonly kind: 'install'; readonly args: readonly string[] }
  /** Installs or starts a ZooKeeper server: the test's TestingServer stands in. */
  | { readonly kind: 'server' }
  /** `export NAME=...`: the variable the test sets to its server's connect string. */
  | { readonly kind: 'env'; readonly name: string }
  /** `node example.js`: run every compiled example that is not a test. */
  | { readonly kind: 'run-examples' }
  /** `node --test x.test.js`: run every compiled example that is a test. */
  | { readonly kind: 'run-tests' }
  /** `npx @zkrecipes/cli ...`: run as written, by a shell. */
  | { readonly kind: 'cli' }
  /** A command no rule knows. */
  | { readonly kind: 'unknown' }
);

function classify(text: string, line: number): PageCommand {
  const args = text.split(/\s+/);
  if (/^npm (init|pkg) /.test(text)) return { kind: 'project', args, text, line };
  if (text === 'npx tsc') return { kind: 'compile', text, line };
  if (/^npm install /.test(text)) return { kind: 'install', args, text, line };
  if (/^apt-get |^\/usr\/share\/zookeeper\/bin\//.test(text)) return { kind: 'server', text, line };
  const variable = /^export ([A-Z_][A-Z0-9_]*)=/.exec(text);
  if (variable) return { kind: 'env', name: variable[1]!, text, line };
  if (/^node --test \S+\.test\.js$/.test(text)) return { kind: 'run-tests', text, line };
  if (/^node \S+\.js$/.test(text)) return { kind: 'run-examples', text, line };
  if (/^npx @zkrecipes\/cli /.test(text)) return { kind: 'cli', text, line };
  return { kind: 'unknown', text, line };
}

/**
 * The commands of every ```sh block, in page order: comments dropped, `a && b` as two
 * commands.
 */
export function pageCommands(blocks: readonly CodeBlock[]): PageCommand[] {
  return blocks
    .filter((block) => block.lang === 'sh')
    .flatMap((block) =>
      block.code.split('\n').flatMap((source, index) =>
        source
          .replace(/\s+#.*$/, '')
          .split(' && ')
          .map((part) => part.trim())
          .filter((part) => part !== '' && !part.startsWith('#'))
          .map((part) => classify(part, block.line + index)),
      ),
    );
}
