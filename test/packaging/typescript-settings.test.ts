// The packed packages in a TypeScript user's project: the program of typescript-settings.ts,
// which imports every published package, built by the repository's TypeScript under `node16`,
// `nodenext` (from ES module and CommonJS files), `node10` and `bundler`, with the declarations
// checked, then run by node, the CommonJS files through require(). typescript-releases.test.ts
// compiles it with older releases. The tarballs are packed once for all the files
// (shared-packs.ts) and installed once (shared-install.ts); no server is needed.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bounded } from './bounded.js';
import { importsOf } from './markdown-blocks.js';
import { sharedInstall, type Installed } from './shared-install.js';
import { sharedPacks, type Packs } from './shared-packs.js';
import type { TempProject } from './temp-project.js';
import { buildSettings, OWN_TYPESCRIPT, typeScriptProject } from './typescript-project.js';
import { EXPECTED_OUTPUT, PROGRAM, SETTINGS } from './typescript-settings.js';

/** `require()` and `import()` of each name given; 'same' where both give the same exports. */
const REQUIRE_CHECK = `const names = process.argv.slice(2);
Promise.all(
  names.map(async (name) => {
    const required = require(name);
    const imported = await import(name);
    const keys = Object.keys(imported);
    const same = keys.length > 0 && keys.every((key) => required[key] === imported[key]);
    const isPackage = name.split('/').length === 2;
    const manifest = !isPackage || require(name + '/package.json').name === name;
    return [name, same && manifest ? 'same' : 'differs: ' + Object.keys(required).join()];
  }),
).then((entries) => console.log(JSON.stringify(Object.fromEntries(entries))));
`;

describe('the packed packages in TypeScript projects', () => {
  let packs: Packs | undefined;
  let installed: Installed | undefined;
  let project: TempProject | undefined;
  /** Every published package, and the framework's subpath. */
  let entryPoints: string[];

  before(async () => {
    packs = await sharedPacks();
    entryPoints = [...packs.tarballs.keys(), '@zkrecipes/framework/recipe-support'];
    installed = await sharedInstall(packs);
    project = typeScriptProject('typescript-settings', installed, [OWN_TYPESCRIPT]);
  });
  after(() => {
    project?.remove();
    if (installed?.shared === false) installed.root.remove();
    if (packs?.shared === false) packs.packs.remove();
  });

  it('the program imports every published package and the framework subpath', () => {
    assert.deepEqual(importsOf(PROGRAM).sort(), [...entryPoints].sort());
  });

  const settings = SETTINGS.map((setting) => setting.name).join(', ');
  it(`compile under ${settings} with TypeScript ${OWN_TYPESCRIPT.version}, declarations checked`, async () => {
    assert.deepEqual(await buildSettings(project!, OWN_TYPESCRIPT, { strict: true }), []);
  });

  it('run as compiled, ES modules and CommonJS alike', async () => {
    const files = SETTINGS.flatMap((setting) => setting.outputs.map((o) => join(setting.name, o)));
    const outputs = await bounded(
      files.map((file) => async () => {
        const { stdout } = await project!.must('node', [file]);
        return [file, JSON.parse(stdout) as unknown] as const;
      }),
    );
    const expected = files.map((file) => [file, EXPECTED_OUTPUT] as const);
    assert.deepEqual(Object.fromEntries(outputs), Object.fromEntries(expected));
  });

  it('give require() the very exports import() gets, at every entry point, quietly', async () => {
    project!.write('require-check.cjs', REQUIRE_CHECK);
    const { stdout, stderr } = await project!.must('node', ['require-check.cjs', ...entryPoints]);
    const same = Object.fromEntries(entryPoints.map((name) => [name, 'same']));
    assert.deepEqual(JSON.parse(stdout), same);
    assert.equal(stderr, '', 'no warning about require() of an ES module');
  });
});
