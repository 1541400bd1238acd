// The package READMEs' examples (and the root README's, once it has some) followed as the recipe
// pages are, in a project of their own (see recipe-pages.ts): a file of its own, since node's
// test runner gives each file 180 s, and the recipe pages alone take most of that on a loaded
// machine.
import { describePages, readmePages } from './recipe-pages.js';

describePages('the READMEs', readmePages());
