// The recipe pages and package READMEs followed in a new ES module project with every package
// installed from its tarball (the rule for the pages is in recipe-pages.ts). A file of its own:
// node's test runner gives each file 180 s, and one file for every packaging test timed out on
// a loaded machine. The tarballs are packed once for all the files (shared-packs.ts).
import { after, before, describe } from 'node:test';
import { fromLocalSources, NPM_INSTALL_FLAGS } from './local-install.js';
import { packedSuite } from './packed-suite.js';
import { describeRecipePages } from './recipe-pages.js';
import { TempProject } from './temp-project.js';

describe('every package in a new ES module project', () => {
  const packed = packedSuite();
  let project: TempProject;

  before(async () => {
    const { tarballs } = packed();
    project = TempProject.create('recipes');
    await project.must('npm', ['init', '-y']);
    await project.must('npm', ['pkg', 'set', 'type=module']);
    const ours = [...tarballs].filter(([name]) => name !== '@zkrecipes/cli');
    const tools = fromLocalSources(['typescript', '@types/node'], tarballs);
    const all = [...ours.map(([, tarball]) => tarball), ...tools];
    await project.must('npm', ['install', ...NPM_INSTALL_FLAGS, ...all]);
  });
  after(() => project?.remove());

  describeRecipePages(() => ({ server: packed().server, project }));
});
