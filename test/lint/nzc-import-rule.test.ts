// The lint rule that keeps node-zookeeper-client inside the framework's facade, run through
// ESLint's Node API with the repository's own eslint.config.js: proof that it bites everywhere
// else and leaves the facade alone.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { ESLint } from 'eslint';

/** The repository's root directory (this file is test/dist/test/lint/*.js). */
const REPO_ROOT = new URL('../../../../', import.meta.url).pathname;
const FACADE = 'packages/framework/src/zk/nzc-adapter.ts';
/** Existing files, so that type-aware linting finds their projects; only the text is ours. */
const RECIPE = 'packages/locks/src/interprocess-mutex.ts';
const FRAMEWORK_NEIGHBOUR = 'packages/framework/src/zk/nzc-reply-tap.ts';
const SCRIPT = 'scripts/run-tests.mjs';
const NZC_RULES = new Set(['no-restricted-imports', 'no-restricted-syntax']);

const STATIC_IMPORT = "import nzc from 'node-zookeeper-client';\nexport const client = nzc;\n";
const DEEP_IMPORT =
  "import Exception from 'node-zookeeper-client/lib/Exception.js';\nexport const e = Exception;\n";
const REEXPORT = "export { createClient } from 'node-zookeeper-client';\n";
const REQUIRE =
  "import { createRequire } from 'node:module';\n" +
  'const require = createRequire(import.meta.url);\n' +
  "export const nzc: unknown = require('node-zookeeper-client');\n";
const CREATE_REQUIRE =
  "import { createRequire } from 'node:module';\n" +
  "export const nzc: unknown = createRequire(import.meta.url)('node-zookeeper-client');\n";
const DYNAMIC = "export const nzc: Promise<unknown> = import('node-zookeeper-client');\n";

describe('the node-zookeeper-client lint rule', () => {
  let eslint: ESLint;
  before(() => {
    eslint = new ESLint({
      cwd: REPO_ROOT,
      // Only the rules under test run, and they read the syntax alone: without the type-aware
      // rules, no TypeScript program is built for the file's project (most of the time here).
      ruleFilter: ({ ruleId }) => NZC_RULES.has(ruleId),
      overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    });
  });

  /** The messages of the rule's two halves for `code` linted as if it were `file`. */
  async function nzcMessages(code: string, file: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: join(REPO_ROOT, file) });
    assert.ok(result, `no lint result for ${file}`);
    const fatal = result.messages.filter((message) => message.fatal);
    assert.deepEqual(fatal, [], `${file} did not parse`);
    return result.messages
      .filter((message) => message.ruleId !== null && NZC_RULES.has(message.ruleId))
      .map((message) => `${message.ruleId}: ${message.message}`);
  }

  it('fails a static import, a deep import and a re-export in a recipe package', async () => {
    for (const code of [STATIC_IMPORT, DEEP_IMPORT, REEXPORT]) {
      const messages = await nzcMessages(code, RECIPE);
      assert.equal(messages.length, 1, `${code}\n${messages.join('\n')}`);
      assert.match(messages[0]!, /^no-restricted-imports: .*Only the facade/);
    }
  });

  it('fails require(), createRequire(...)() and import() of it in a recipe package', async () => {
    for (const code of [REQUIRE, CREATE_REQUIRE, DYNAMIC]) {
      const messages = await nzcMessages(code, RECIPE);
      assert.equal(messages.length, 1, `${code}\n${messages.join('\n')}`);
      assert.match(messages[0]!, /^no-restricted-syntax: .*Only the facade/);
    }
  });

  it('fails it in the facade folder outside the facade file, and in a script', async () => {
    assert.equal((await nzcMessages(STATIC_IMPORT, FRAMEWORK_NEIGHBOUR)).length, 1);
    const script =
      "import { createRequire } from 'node:module';\n" +
      "const require = createRequire(import.meta.url);\nrequire('node-zookeeper-client');\n";
    assert.equal((await nzcMessages(script, SCRIPT)).length, 1);
  });

  it('lets a package whose name only starts the same through', async () => {
    const code =
      "import other from 'node-zookeeper-client-extra';\nexport const o: unknown = other;\n";
    assert.deepEqual(await nzcMessages(code, RECIPE), []);
  });

  it('allows the facade its imports: the snippets and its own source', async () => {
    for (const code of [STATIC_IMPORT, DEEP_IMPORT, REQUIRE]) {
      assert.deepEqual(await nzcMessages(code, FACADE), []);
    }
    const source = readFileSync(join(REPO_ROOT, FACADE), 'utf8');
    assert.match(source, /^import \w+ from 'node-zookeeper-client';$/m, 'the facade loads nzc');
    assert.deepEqual(await nzcMessages(source, FACADE), []);
  });

  it('the facade loads nzc with a plain import a bundler can follow: no createRequire, no deep path', () => {
    const source = readFileSync(join(REPO_ROOT, FACADE), 'utf8');
    assert.doesNotMatch(source, /createRequire|require\(/);
    assert.doesNotMatch(source, /node-zookeeper-client\//);
  });

  it('still applies the other no-restricted-syntax rules in the facade', async () => {
    const messages = await nzcMessages("export * from './nzc-types.js';\n", FACADE);
    assert.deepEqual(messages, [
      'no-restricted-syntax: Use explicit named exports, not `export *`.',
    ]);
  });
});
