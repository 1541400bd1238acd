// What would make an unpacked package fail a user who installs it on its own: files that its
// package.json or its source maps name but that are not in it, a missing LICENSE, README links
// that only work inside the repository, exact pins on sibling packages, a .d.ts without its
// CommonJS twin.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readManifest, type ExportTarget } from './pack-packages.js';

/** Every path below `dir`, relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = join(prefix, entry.name);
    return entry.isDirectory() ? filesUnder(dir, path) : [path];
  });
}

/** The paths an `exports` target names, under all its conditions. */
function pathsOf(target: ExportTarget): string[] {
  return typeof target === 'string' ? [target] : Object.values(target).flatMap(pathsOf);
}

/**
 * What is wrong with the package unpacked at `root` (empty when nothing is); `license` is the
 * text its LICENSE must have.
 */
export function packageProblems(root: string, license: string): string[] {
  const manifest = readManifest(join(root, 'package.json'));
  const files = filesUnder(root);
  const problems: string[] = [];
  if (
    !existsSync(join(root, 'LICENSE')) ||
    readFileSync(join(root, 'LICENSE'), 'utf8') !== license
  ) {
    problems.push("no LICENSE, or not the repository's");
  }
  const targets = [
    ...Object.values(manifest.exports ?? {}).flatMap(pathsOf),
    ...Object.values(manifest.bin ?? {}),
    ...[manifest.main, manifest.types].filter((path) => path !== undefined),
    ...Object.values(manifest.typesVersions ?? {}).flatMap((paths) => Object.values(paths).flat()),
  ];
  for (const target of targets) {
    if (!existsSync(join(root, target))) {
      problems.push(`${target} (exports/bin/main/types/typesVersions) is missing`);
    }
  }
  // The `require` condition's declarations (scripts/cjs-declarations.mjs): one per emitted .d.ts,
  // or a CommonJS importer's types go quietly `any` where one is missing. A .d.ts among the
  // shipped sources (an ambient declaration the build reads) is not an entry's type.
  const shipped = new Set(files);
  const emitted = files.filter((file) => file.startsWith('dist/') && file.endsWith('.d.ts'));
  for (const declarations of emitted) {
    const cjs = declarations.replace(/\.d\.ts$/, '.d.cts');
    if (!shipped.has(cjs)) problems.push(`${cjs} is missing`);
  }
  for (const map of files.filter((file) => file.endsWith('.map'))) {
    const { sources } = JSON.parse(readFileSync(join(root, map), 'utf8')) as { sources: string[] };
    for (const source of sources) {
      if (!existsSync(join(root, dirname(map), source))) problems.push(`${map} -> ${source}`);
    }
  }
  if (files.some((file) => file.startsWith('dist/test/'))) problems.push('ships dist/test');
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  for (const [, link] of readme.matchAll(/\]\(([^)]+)\)/g)) {
    if (!/^(https:|#)/.test(link!)) problems.push(`README link ${link} breaks on the registry`);
  }
  const siblings = { ...manifest.dependencies, ...manifest.peerDependencies };
  for (const [name, range] of Object.entries(siblings)) {
    if (name.startsWith('@zkrecipes/') && !range.startsWith('^')) {
      problems.push(`${name} pinned to ${range}`);
    }
  }
  return problems;
}
