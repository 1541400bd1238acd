// The packed packages compiled by older TypeScript releases, from the registry: the program of
// typescript-settings.ts under every setting, type-checked by TypeScript 5.0, 5.4, 5.6 and 5.9
// (typescript-settings.test.ts builds it with the repository's own and runs it). A file of its
// own, for node's test runner gives each file 180 s. The releases are installed once per run,
// side by side under npm aliases; the tarballs are packed and installed once for all the files
// (shared-packs.ts, shared-install.ts); no server is needed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bounded } from './bounded.js';
import { NPM_INSTALL_FLAGS } from './local-install.js';
import { sharedInstall, type Installed } from './shared-install.js';
import { sharedPacks, type Packs } from './shared-packs.js';
import { TempProject } from './temp-project.js';
import {
  buildSettings,
  installedVersion,
  releaseIn,
  typeScriptProject,
  type Compiler,
} from './typescript-project.js';
import { SETTINGS, TYPESCRIPT_VERSIONS } from './typescript-settings.js';

describe('the packed packages in TypeScript projects of older releases', () => {
  let packs: Packs | undefined;
  let installed: Installed | undefined;
  let releases: TempProject | undefined;
  let project: TempProject | undefined;
  let compilers: Compiler[];

  before(async () => {
    releases = TempProject.create('typescript-releases');
    releases.write('package.json', JSON.stringify({ private: true }));
    compilers = TYPESCRIPT_VERSIONS.map((version) => releaseIn(releases!, version));
    const aliases = TYPESCRIPT_VERSIONS.map((v) => `typescript-${v}@npm:typescript@${v}`);
    const installProject = async (): Promise<void> => {
      packs = await sharedPacks();
      installed = await sharedInstall(packs);
      project = typeScriptProject('typescript-releases-project', installed, compilers);
    };
    await Promise.all([
      releases.must('npm', ['install', ...NPM_INSTALL_FLAGS, ...aliases], 120_000),
      installProject(),
    ]);
  });
  after(() => {
    releases?.remove();
    project?.remove();
    if (installed?.shared === false) installed.root.remove();
    if (packs?.shared === false) packs.packs.remove();
  });

  const settings = SETTINGS.map((setting) => setting.name).join(', ');
  it(`compile under ${settings} with TypeScript ${TYPESCRIPT_VERSIONS.join(', ')}`, async () => {
    for (const compiler of compilers) {
      const installed = installedVersion(compiler);
      assert.ok(
        installed.startsWith(`${compiler.version}.`),
        `${installed} for ${compiler.version}`,
      );
    }
    const failures = await bounded(compilers.map((c) => () => buildSettings(project!, c)));
    assert.deepEqual(failures.flat(), []);
  });
});
