// `npm pack` of every public package of this repository, as a release would pack them: with
// their prepack build, into one directory of tarballs.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TempProject } from './temp-project.js';

/** The repository's root directory (this file is test/dist/test/packaging/*.js). */
export const REPO_ROOT = new URL('../../../../', import.meta.url).pathname;

/** What an `exports` key maps to: a path, or conditions each mapping to one in turn. */
export type ExportTarget = string | { readonly [condition: string]: ExportTarget };

/** A package's manifest, the parts these tests read. */
export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly type?: string;
  readonly bin?: Readonly<Record<string, string>>;
  readonly main?: string;
  readonly types?: string;
  readonly typesVersions?: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
  readonly exports?: Readonly<Record<string, ExportTarget>>;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
}

/** Reads a package.json. */
export function readManifest(path: string): Manifest {
  return JSON.parse(readFileSync(path, 'utf8')) as Manifest;
}

/** The workspace folders under packages/ that npm would publish (not private). */
export function publicPackageDirs(): string[] {
  return readdirSync(join(REPO_ROOT, 'packages'))
    .map((name) => join('packages', name))
    .filter((dir) => readManifest(join(REPO_ROOT, dir, 'package.json')).private !== true)
    .sort();
}

/**
 * Packs every public package into `project.dir` (its prepack script builds it first) and
 * resolves package name -> tarball path.
 */
export async function packPackages(project: TempProject): Promise<Map<string, string>> {
  const workspaces = publicPackageDirs().flatMap((dir) => ['--workspace', join(REPO_ROOT, dir)]);
  const { stdout, output } = await project.must(
    'npm',
    ['pack', '--json', '--pack-destination', project.dir, '--prefix', REPO_ROOT, ...workspaces],
    120_000,
  );
  const packed = JSON.parse(stdout) as { name: string; filename: string }[];
  assert.equal(packed.length, workspaces.length / 2, output);
  return new Map(packed.map(({ name, filename }) => [name, join(project.dir, filename)]));
}

/**
 * `names` and every @zkrecipes package they depend on, directly or not (dependencies only:
 * peers are the user's choice, dev dependencies never install): what the registry would bring
 * along, so that a test can install it from the tarballs instead.
 */
export function withOurDependencies(names: readonly string[]): string[] {
  const found = new Set<string>();
  const visit = (name: string): void => {
    if (found.has(name)) return;
    found.add(name);
    const folder = name.slice('@zkrecipes/'.length);
    const manifest = readManifest(join(REPO_ROOT, 'packages', folder, 'package.json'));
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      if (dependency.startsWith('@zkrecipes/')) visit(dependency);
    }
  };
  for (const name of names) visit(name);
  return [...found];
}
