// Every error class in the packages' sources has a `code` and a row in docs/framework/errors.md
// that names it with that code: a new error class cannot ship undocumented or without a code.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';

/** The repository's root directory (this file is test/dist/test/lint/*.js). */
const REPO_ROOT = new URL('../../../../', import.meta.url).pathname;
const ERRORS_PAGE = join(REPO_ROOT, 'docs/framework/errors.md');

interface ErrorClass {
  readonly name: string;
  readonly base: string;
  readonly file: string;
  /** The code literal the class sets (`readonly code = 'X'`, `code: 'X'`, `super('X', ...)`). */
  readonly code: string | undefined;
  /** Whether the class body declares a `code` at all (a literal or a computed one). */
  readonly hasCode: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

function errorClasses(): ErrorClass[] {
  const packages = join(REPO_ROOT, 'packages');
  const classes: ErrorClass[] = [];
  for (const pkg of readdirSync(packages)) {
    const src = join(packages, pkg, 'src');
    if (!statSync(join(packages, pkg)).isDirectory()) continue;
    for (const file of sourceFiles(src)) {
      const text = readFileSync(file, 'utf8');
      // Exported classes only: an unexported one never reaches a caller.
      for (const match of text.matchAll(/^export class (\w+Error) extends (\w+) \{$/gm)) {
        const end = text.indexOf('\n}\n', match.index);
        const body = text.slice(match.index, end === -1 ? undefined : end);
        const literal =
          /readonly code(?::| =) '([A-Z_]+)'/.exec(body) ?? /super\('([A-Z_]+)'/.exec(body);
        classes.push({
          name: match[1]!,
          base: match[2]!,
          file: relative(REPO_ROOT, file),
          code: literal?.[1],
          hasCode: /\bcode\b/.test(body),
        });
      }
    }
  }
  return classes;
}

describe('docs/framework/errors.md', () => {
  const classes = errorClasses();
  const rows = readFileSync(ERRORS_PAGE, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| `'));

  it('finds the error classes of several packages (the scan itself works)', () => {
    const files = new Set(classes.map((c) => c.file.split('/')[1]));
    assert.ok(classes.length >= 20, `${classes.length} classes`);
    for (const pkg of ['framework', 'locks', 'queues', 'atomic', 'testing', 'cli']) {
      assert.ok(files.has(pkg), `no error class found in ${pkg}`);
    }
  });

  it('every exported error class has a code, its own or a ZooKeeperError base class', () => {
    const byName = new Map(classes.map((c) => [c.name, c]));
    const hasCode = (c: ErrorClass | undefined): boolean =>
      c !== undefined && (c.hasCode || c.name === 'ZooKeeperError' || hasCode(byName.get(c.base)));
    const without = classes.filter((c) => !hasCode(c)).map((c) => `${c.name} (${c.file})`);
    assert.deepEqual(without, []);
  });

  it('lists every exported error class in a table row with its code', () => {
    const missing: string[] = [];
    // The base class has a section of its own ("The base class"), not a row.
    for (const c of classes.filter(({ name }) => name !== 'ZooKeeperError')) {
      const row = rows.find((line) => line.startsWith(`| \`${c.name}\``));
      if (row === undefined) missing.push(`${c.name} (${c.file}): no row`);
      else if (c.code !== undefined && !row.includes(`\`${c.code}\``)) {
        missing.push(`${c.name}: its row does not say \`${c.code}\``);
      }
    }
    assert.deepEqual(missing, []);
  });
});
