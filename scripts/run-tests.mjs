// Runs every compiled test file with node's test runner. Node 20 does not expand globs in
// `--test`, so the file list is collected here. Usage: node scripts/run-tests.mjs [filter...]
// A filter keeps files whose path contains it (e.g. `testing`, `framework/dist/test/retry`).
// The files go to node:test's run() rather than to `node --test`, which sorts the files it is
// given by name and so would undo the order chosen below.
import { readdirSync, existsSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { finished } from 'node:stream/promises';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { fileTimes } from './file-times.mjs';

const root = new URL('..', import.meta.url).pathname;
const workspaceDirs = [
  ...readdirSync(join(root, 'packages')).map((name) => join(root, 'packages', name)),
  join(root, 'test'),
  join(root, 'examples'),
  join(root, 'bench'),
];

function testFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.js') ? [path] : [];
  });
}

// The files that take a minute or more (packing and installing the packages, the stress and
// chaos runs, the API reference) start first: the runner takes files in order as a lane frees
// up, and started last they left one lane running alone for minutes at the end.
const LONG_FILES = [
  'test/dist/test/packaging/',
  'test/dist/test/stress/',
  'test/dist/test/chaos/',
  'test/dist/test/lint/api-reference',
];
const isLong = (file) => LONG_FILES.some((prefix) => file.startsWith(prefix));

const filters = process.argv.slice(2);
const files = workspaceDirs
  .flatMap((dir) => testFiles(join(dir, 'dist', 'test')))
  .map((file) => relative(root, file))
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .sort()
  .sort((a, b) => Number(isLong(b)) - Number(isLong(a)));

if (files.length === 0) {
  console.error('run-tests: no compiled test files found (did `tsc -b` run?)');
  process.exit(1);
}

// Each integration file starts its own ZooKeeper JVM; two at a time fits two cores. A file
// that has not ended after 180 s fails.
const concurrency = Number(process.env.ZK_TEST_CONCURRENCY ?? '2');
const stream = run({
  files: files.map((file) => join(root, file)),
  concurrency,
  timeout: 180_000,
});
stream.on('test:fail', () => {
  process.exitCode = 1;
});
const times = fileTimes(stream, root);
const report = stream.compose(new spec());
report.pipe(process.stdout);
await finished(report);
console.log(times());
