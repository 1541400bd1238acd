// `zkrecipes --version` as an operator runs it: the installed package's version, nothing else,
// and at once: what it loads before answering is only the CLI's own few modules.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { runCli } from './helpers.js';

/**
 * The modules `file` imports statically, transitively (`import ... from '...'` statements of
 * the compiled JavaScript; an `import()` expression is left out: it loads only when it runs).
 */
function staticImports(file: URL, seen = new Set<string>()): Set<string> {
  for (const [, specifier] of readFileSync(file, 'utf8').matchAll(
    /^(?:import|export)\s[^;]*?\sfrom\s'([^']+)';/gms,
  )) {
    if (seen.has(specifier!)) continue;
    seen.add(specifier!);
    if (specifier!.startsWith('.')) staticImports(new URL(specifier!, file), seen);
  }
  return seen;
}

const manifest = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string };

describe('zkrecipes --version', () => {
  for (const args of [['--version'], ['-v'], ['version'], ['inspect', '/app', '--version']]) {
    it(`\`zkrecipes ${args.join(' ')}\` prints the package version and exits 0`, async () => {
      const run = await runCli(args);
      assert.deepEqual(
        { code: run.code, stdout: run.stdout, stderr: run.stderr },
        { code: 0, stdout: `${manifest.version}\n`, stderr: '' },
      );
    });
  }

  it('loads neither the framework nor the recipes first: they come with the command that needs them', () => {
    const loaded = [...staticImports(new URL('../src/main.js', import.meta.url))];
    assert.ok(loaded.includes('./run-cli.js'), loaded.join(', '));
    assert.deepEqual(
      loaded.filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:')),
      [],
    );
  });

  it('is listed in the usage text', async () => {
    const run = await runCli(['help']);
    assert.match(run.stdout, /-v, --version/);
  });
});
