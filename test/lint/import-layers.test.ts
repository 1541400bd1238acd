// The import rules of docs/architecture.md ("Layers"), run through ESLint's Node API with the
// repository's own eslint.config.js: proof that they bite on a planted upward import and a
// planted cycle, and that the files as they are pass.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { ESLint } from 'eslint';

/** The repository's root directory (this file is test/dist/test/lint/*.js). */
const REPO_ROOT = new URL('../../../../', import.meta.url).pathname;
const RULES = new Set(['zkrecipes/layered-imports', 'zkrecipes/no-import-cycle']);
/** Existing files, so that type-aware linting finds their projects; the text is the test's. */
const ZK_FILE = 'packages/framework/src/zk/read-batcher.ts';
const CLIENT_FILE = 'packages/framework/src/client/namespace-mapper.ts';
const ERRORS_FILE = 'packages/framework/src/errors/describe-value.ts';
const LOCK_NAMES = 'packages/locks/src/lock-node-names.ts';

describe('the import rules', () => {
  let eslint: ESLint;
  before(() => {
    eslint = new ESLint({
      cwd: REPO_ROOT,
      // Only the rules under test run, and they read the syntax alone: without the type-aware
      // rules, no TypeScript program is built for the file's project (most of the time here).
      ruleFilter: ({ ruleId }) => RULES.has(ruleId),
      overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    });
  });

  /** The two rules' messages for `code` linted as if it were `file`. */
  async function importMessages(code: string, file: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: join(REPO_ROOT, file) });
    assert.ok(result, `no lint result for ${file}`);
    assert.deepEqual(
      result.messages.filter((message) => message.fatal),
      [],
      `${file} did not parse`,
    );
    return result.messages
      .filter((message) => message.ruleId !== null && RULES.has(message.ruleId))
      .map((message) => `${message.ruleId}: ${message.message}`);
  }

  it('fails an import from a lower layer up into a higher one, type-only imports included', async () => {
    for (const code of [
      "import { FrameworkClient } from '../client/framework-client.js';\nexport const c = FrameworkClient;\n",
      "import type { FrameworkClient } from '../client/framework-client.js';\nexport type C = FrameworkClient;\n",
    ]) {
      const messages = await importMessages(code, ZK_FILE);
      assert.equal(messages.length, 1, messages.join('\n'));
      assert.match(
        messages[0]!,
        /^zkrecipes\/layered-imports: 'zk' \(layer 4\) may not import 'client' \(layer 7\)/,
      );
    }
  });

  it('fails an import between two folders of one layer', async () => {
    const code = "import { onAbort } from '../async/on-abort.js';\nexport const o = onAbort;\n";
    const messages = await importMessages(code, ERRORS_FILE);
    assert.deepEqual(messages, [
      "zkrecipes/layered-imports: 'errors' may not import 'async': folders of one layer stay independent (docs/architecture.md)",
    ]);
  });

  it('lets a higher layer import a lower one', async () => {
    const code =
      "import { ConnectionLossError } from '../errors/zookeeper-error-classes.js';\n" +
      "import { WatchRegistry } from '../zk/watch-registry.js';\n" +
      'export const both = [ConnectionLossError, WatchRegistry];\n';
    assert.deepEqual(await importMessages(code, CLIENT_FILE), []);
  });

  it('fails a runtime import cycle, naming the files around it', async () => {
    // lock-internals imports lock-node-names at run time: importing it back closes a cycle.
    const source = readFileSync(join(REPO_ROOT, LOCK_NAMES), 'utf8');
    const planted = `${source}\nimport { LockInternals } from './lock-internals.js';\nexport const planted = LockInternals;\n`;
    const messages = await importMessages(planted, LOCK_NAMES);
    assert.equal(messages.length, 1, messages.join('\n'));
    assert.match(
      messages[0]!,
      /^zkrecipes\/no-import-cycle: import cycle: packages\/locks\/src\/lock-node-names\.ts -> packages\/locks\/src\/lock-internals\.ts -> .*packages\/locks\/src\/lock-node-names\.ts$/,
    );
  });

  it('lets a cycle of types alone through: `import type` is erased', async () => {
    const source = readFileSync(join(REPO_ROOT, LOCK_NAMES), 'utf8');
    const planted = `${source}\nimport type { LockInternals } from './lock-internals.js';\nexport type Planted = LockInternals;\n`;
    assert.deepEqual(await importMessages(planted, LOCK_NAMES), []);
  });

  it('passes the files as they are', async () => {
    for (const file of [ZK_FILE, CLIENT_FILE, ERRORS_FILE, LOCK_NAMES]) {
      const source = readFileSync(join(REPO_ROOT, file), 'utf8');
      assert.deepEqual(await importMessages(source, file), [], file);
    }
  });
});
