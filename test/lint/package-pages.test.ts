// What a user finds about a published package on the registry before installing it: keywords
// that a search for ZooKeeper or Curator matches, and a README that links the API reference.
// Read from the sources (the packed packages are checked in test/packaging, more slowly).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

/** The repository's root directory (this file is test/dist/test/lint/*.js). */
const REPO_ROOT = new URL('../../../../', import.meta.url).pathname;
/** Where every README sends its reader for the API reference (an absolute link: the registry). */
const API_REFERENCE = 'https://github.com/zkrecipes/zkrecipes/blob/main/docs/api/README.md';

interface Manifest {
  readonly name: string;
  readonly private?: boolean;
  readonly keywords?: readonly string[];
}

/** The published packages: every folder under packages/ whose package.json is not private. */
function publishedPackages(): { dir: string; manifest: Manifest }[] {
  return readdirSync(join(REPO_ROOT, 'packages'))
    .map((name) => join(REPO_ROOT, 'packages', name))
    .map((dir) => ({
      dir,
      manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest,
    }))
    .filter(({ manifest }) => manifest.private !== true);
}

describe('the published packages’ registry pages', () => {
  const packages = publishedPackages();

  it('finds the published packages (not the private test-support)', () => {
    const names = packages.map(({ manifest }) => manifest.name);
    assert.ok(names.includes('@zkrecipes/framework') && names.includes('@zkrecipes/cli'));
    assert.ok(!names.includes('@zkrecipes/test-support'));
  });

  it('have keywords: zookeeper, curator and at least one saying what the package is', () => {
    const missing = packages
      .filter(({ manifest }) => {
        const keywords = manifest.keywords ?? [];
        return (
          !keywords.includes('zookeeper') || !keywords.includes('curator') || keywords.length < 3
        );
      })
      .map(({ manifest }) => `${manifest.name}: ${JSON.stringify(manifest.keywords)}`);
    assert.deepEqual(missing, []);
  });

  it('link the API reference from their README', () => {
    const missing = packages
      .filter(({ dir }) => !readFileSync(join(dir, 'README.md'), 'utf8').includes(API_REFERENCE))
      .map(({ manifest }) => manifest.name);
    assert.deepEqual(missing, []);
  });
});
