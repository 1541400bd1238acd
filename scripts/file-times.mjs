// How long each test file of a run took, printed once the run ends, the slowest first: what to
// look at when the suite grows slow.
import { relative } from 'node:path';

/**
 * Collects the file times of `stream` (node:test's run() stream) and resolves, once it ends,
 * the lines to print.
 */
export function fileTimes(stream, root) {
  const times = [];
  // A file's own entry: the top-level test the runner names after the file.
  stream.on('test:complete', ({ file, name, nesting, details }) => {
    if (nesting === 0 && file !== undefined && name === file) {
      times.push([details?.duration_ms ?? 0, relative(root, file)]);
    }
  });
  return () => {
    times.sort((a, b) => b[0] - a[0]);
    const total = times.reduce((sum, [ms]) => sum + ms, 0);
    return [
      `\nfile times (${times.length} files, ${(total / 1000).toFixed(0)} s in all):`,
      ...times.map(([ms, file]) => `${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`),
    ].join('\n');
  };
}
