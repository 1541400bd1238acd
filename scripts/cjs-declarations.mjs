// Writes a CommonJS declaration file (.d.cts) next to every .d.ts of a package's dist/src, for
// the `require` condition of its exports. The packages ship one ES module implementation, which
// Node >= 20.19 loads with require() too; a second, CommonJS build would give each class two
// copies and break `instanceof` on our errors. TypeScript, though, refuses to let a CommonJS
// file import declarations it takes for ES modules (TS1479 under `node16`, and `nodenext`
// before 5.8), so CommonJS importers get the same declarations as .d.cts files, whose relative
// specifiers name .cjs files so that they resolve to each other and never to the .d.ts tree.
// Usage: node scripts/cjs-declarations.mjs [package dir...] (default: the current directory);
// private packages are skipped.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every file below `dir`. */
function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** `from './x.js'`, `import('../y.js')` as `from './x.cjs'`, `import('../y.cjs')`. */
function asCommonJs(declarations) {
  return declarations.replace(
    /(\bfrom\s+|\bimport\s*\(\s*)(['"])(\.{1,2}\/[^'"]*)\.js\2/g,
    (_, before, quote, path) => `${before}${quote}${path}.cjs${quote}`,
  );
}

for (const packageDir of process.argv.length > 2 ? process.argv.slice(2) : ['.']) {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  if (manifest.private === true) continue; // never packed, imported by our ES modules only
  const files = filesUnder(join(packageDir, 'dist', 'src'));
  const sources = new Set(files.filter((file) => file.endsWith('.d.ts')));
  for (const source of sources) {
    writeFileSync(source.replace(/\.d\.ts$/, '.d.cts'), asCommonJs(readFileSync(source, 'utf8')));
  }
  // A source removed since the last build leaves no stale .d.cts behind to be packed.
  for (const file of files) {
    if (file.endsWith('.d.cts') && !sources.has(file.replace(/\.d\.cts$/, '.d.ts'))) rmSync(file);
  }
}
