// The recipe pages followed in a new ES module project with every package installed from its
// tarball (the rule for the pages is in recipe-pages.ts; readme-pages.test.ts does the same for
// the READMEs). A file of its own: node's test runner gives each file 180 s, and one file for
// every packaging test timed out on a loaded machine. The tarballs are packed once for all the
// files (shared-packs.ts).
import { describePages, recipePages } from './recipe-pages.js';

describePages('the recipe pages', recipePages());
