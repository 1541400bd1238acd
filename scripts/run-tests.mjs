// Runs every compiled test file with node's test runner. Node 20 does not expand globs in
// `--test`, so the file list is collected here. Usage: node scripts/run-tests.mjs [filter...]
// A filter keeps files whose path contains it (e.g. `testing`, `framework/dist/test/retry`).
import { spawn } from 'node:child_process';
import { readdirSync, existsSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

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

// Each integration file starts its own ZooKeeper JVM; two at a time fits two cores.
const concurrency = process.env.ZK_TEST_CONCURRENCY ?? '2';
const child = spawn(
  process.execPath,
  [
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    // After the run: each file's time, the slowest first.
    `--test-reporter=${join(root, 'scripts', 'file-times-reporter.mjs')}`,
    '--test-reporter-destination=stdout',
    '--test-timeout=180000',
    `--test-concurrency=${concurrency}`,
    ...files,
  ],
  { cwd: root, stdio: 'inherit' },
);
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
