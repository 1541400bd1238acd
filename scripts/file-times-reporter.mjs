// A reporter for node's test runner that prints, once the run ends, how long each test file
// took, the slowest first: what to look at when the suite grows slow. Its lines go alongside
// the spec reporter's (run-tests.mjs names both).
import { relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

export default async function* fileTimes(source) {
  const times = [];
  for await (const event of source) {
    // A file's own entry: the top-level test that the runner names after the file.
    const { file, name, nesting, details } = event.data ?? {};
    if (event.type === 'test:complete' && nesting === 0 && file !== undefined && name === file) {
      times.push([details?.duration_ms ?? 0, relative(root, file)]);
    }
  }
  if (times.length === 0) return;
  times.sort((a, b) => b[0] - a[0]);
  const total = times.reduce((sum, [ms]) => sum + ms, 0);
  yield `\nfile times (${times.length} files, ${(total / 1000).toFixed(0)} s in all):\n`;
  for (const [ms, file] of times) yield `${(ms / 1000).toFixed(1).padStart(7)} s  ${file}\n`;
}
